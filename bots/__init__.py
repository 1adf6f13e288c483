"""troef's own bots: each module is a plugin under the ``troef`` entry points."""
