"""task_data.py — the Task workload's data, the same for every system (bench/task_api.py,
bench/orm_peers.py): a list of dicts of Python values (datetime, Decimal, a nested list and dict).
Importing it loads no database library."""
from datetime import datetime, timedelta, timezone
from decimal import Decimal

START = datetime(2025, 1, 1, tzinfo=timezone.utc)


def users_count(n: int) -> int:
    return max(100, n // 100)


def task(i: int, users: int) -> dict:
    """Task i: 0-3 tags (1.5 on average), an estimate on 3 tasks of 4, a mixed value that is an
    int, a string or a double."""
    return {
        "id": i,
        "title": f"task {i}",
        "done": i % 3 == 0,
        "due": START + timedelta(minutes=i),
        "estimate": Decimal(f"{i % 100}.5") if i % 4 else None,
        "extra": i if i % 3 == 0 else (f"x{i}" if i % 3 == 1 else i * 0.25),
        "owner": 1 + i % users,
        "tags": [f"tag{(i + k) % 10}" for k in range(i % 4)],
        "location": {"city": f"city{i % 50}", "street": f"{i} Main Street"},
    }
