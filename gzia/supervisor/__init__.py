"""Process supervision: process groups, PTYs, signal forwarding, tree kill."""
