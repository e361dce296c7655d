"""The JSON API: views, the shapes it shows, and DRF's plumbing."""
