"""A plugin whose import fails, as a plugin with a missing dependency would."""

raise ImportError("No module named 'a_dependency_that_is_missing'")
