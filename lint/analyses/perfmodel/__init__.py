"""The performance model: the machine each generation issues on (machines.json, `machine.py`), how a launch
grid fills a device (`launch.py`), the multi-wave simulator of one CU or WGP (`simulator.py`) and a kernel's
main loop's cycles per trip on it (`mainloop.py`)."""
