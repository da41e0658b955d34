"""Test hooks for misbehaving peers (filled in below)."""
def install(node, how):
    raise ValueError(how)
