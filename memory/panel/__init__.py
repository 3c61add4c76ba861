"""Staff HTML: the panel's views, forms, dry runs and URLs."""
