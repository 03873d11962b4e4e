"""Each backend's schema, one migration after another."""
