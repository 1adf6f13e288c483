"""The contracts a plugin author needs: Game, State, View, Bot, Result,
options, teams, seeding, errors and the plugin hooks. Imports nothing else of troef.
"""
