from tests.fakes.fixtures import *  # noqa: F403
