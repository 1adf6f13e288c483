"""troef's own bots, each module a plugin registered under the ``troef`` entry points."""
