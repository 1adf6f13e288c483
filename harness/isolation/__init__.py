"""Bots in their own process: the protocol, process bots, the running bot
program, its launch settings, the pool that keeps programs, the Python host,
interleaved matches, the reaper and the bubblewrap sandbox.
"""
