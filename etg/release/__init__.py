"""The release: the software manifest a test lab compares, and its check at start-up."""
