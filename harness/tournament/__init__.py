"""Tournaments: configs, plans, the scheduler, executors (local, Dask, plugins),
workers, the SQLite store, the ladder and the SPRT monitor.
"""
