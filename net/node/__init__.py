"""The node: one peer's process — its loop, transport, lobby, discovery and files."""
