"""Statistics: rating fits with intervals, significance tests, Elo and
standings. Pure computation on results: imports only the contracts.
"""
