"""Print the scenario suite's shares per type and category at the end of the run (test_scenarios.REPORTS)."""

from __future__ import annotations


def pytest_terminal_summary(terminalreporter):
    from .test_scenarios import REPORTS  # imported here: only a run that collected the suite has a report

    for report in REPORTS:
        terminalreporter.section("context scenarios: share of scenarios whose needed facts reached the model")
        for line in report.lines():
            terminalreporter.write_line(line)
