"""The artifact viewer: `webmdp view RUN [RUN ...]` serves a web app to browse, replay and
compare episodes (WebSTEP Appendix G). Reads traces and tasks only."""

from webmdp.viewer.app import create_app
from webmdp.viewer.index import EpisodeRef, RunIndex, TaskRef
from webmdp.viewer.serve import ViewerServer

__all__ = ["EpisodeRef", "RunIndex", "TaskRef", "ViewerServer", "create_app"]
