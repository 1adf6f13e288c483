"""troef's own games: one subpackage per family, shared card and trick code beside."""
