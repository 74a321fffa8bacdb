"""The app's view of the open comparison: a Qt adapter over core's comparison session."""
