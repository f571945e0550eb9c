"""An agent shipped as a plugin (entry-point group ``webmdp.agents``): a card-reading baseline
for the library. ``webmdp run --site library --agent card_reader`` finds it by name."""

from __future__ import annotations

from collections import deque

from webmdp import Action, PlanningAgent, SemanticView, Task
from webmdp_library import vocab as V

COMMITS = (("borrow", "BorrowBook"), ("hold", "PlaceHold"), ("reading list", "SaveToList"))


class CardReader(PlanningAgent):
    """Narrows the catalogue to the genre and format the instruction names, opens the first
    book listed and takes the commit the instruction asks for. It reads cards, never compares
    detail pages: the hard negatives (same genre and format, another branch, language or
    rating) catch it, which is what a baseline is for."""

    name = "card_reader"

    def start(self, task: Task) -> None:
        words = task.instruction.lower()
        self.steps: deque[Action] = deque()
        genre = next((g for g in V.GENRES if g.lower() in words), None)
        form = next((f for f in V.FORMATS if f.lower() in words), None)
        if genre:
            self.steps.append(Action("SetGenre", {"genre": genre}))
        if form:
            self.steps.append(Action("ToggleFormat", {"format": form}))
        self.commit = next((c for key, c in COMMITS if key in words), "")
        self.opened = False

    def choose(self, view: SemanticView) -> Action | None:
        if self.steps:
            return self.steps.popleft()
        if not self.opened:
            self.opened = True
            return next((a for a in view.available if a.name == "OpenBook"), None)
        commit, self.commit = self.commit, ""  # commit once, then finish
        return next((a for a in view.available if a.name == commit), None) if commit else None
