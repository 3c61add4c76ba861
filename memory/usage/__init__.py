"""What the model calls used (issue 24): recording each call's usage, the monthly budgets, the usage page's days."""
