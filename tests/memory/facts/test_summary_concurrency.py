"""Two staff saving the summary at the same moment: both succeed in turn, exactly one stays current."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from memory.facts.services import FactAuthor
from memory.facts.summary import summary_set
from memory.models import Summary


@pytest.mark.django_db(transaction=True)
def test_simultaneous_summary_saves_leave_exactly_one_current_summary(server, owner):
    barrier, errors = threading.Barrier(2), []

    def save(text: str) -> None:
        try:
            barrier.wait()
            summary_set(server=server, content=text, author=FactAuthor.staff(owner))
        except Exception as error:  # noqa: BLE001 - the test reports whatever went wrong
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=save, args=(f"Summary {index}",)) for index in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert errors == []
    assert Summary.objects.filter(server=server).count() == 2
    assert Summary.objects.filter(server=server, retracted_at__isnull=True).count() == 1
