"""A comparison session: its inputs, settings, selection and annotations, and where it is stored."""
