"""How Matchlight looks, without Qt: the colours of its themes, shared by the app and the report."""
