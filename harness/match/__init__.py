"""Playing one match: the referee, the conformance suite, narration and the
person at the table. Stands on the contracts and the plugin registry.
"""
