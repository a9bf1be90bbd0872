"""The performance model: the machine each generation issues on (machines.json, `machine.py`), how a launch
grid fills a device (`launch.py`) and the multi-wave simulator of one CU or WGP (`simulator.py`)."""
