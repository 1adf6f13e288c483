"""Bots in their own process: the protocol, process bots, the pool that keeps
them, the Python host, interleaved matches, bot users and the reaper.
"""
