"""CAP's taxonomy of complex interactions (CAP, Appendix B): 64 action types (Table B.1) and
56 perception types (Table B.2), each tied to a UI component and a component category.

The ids, components, names and categories are the paper's; the descriptions are our short
paraphrases. The categories follow Ant Design's (Navigation, Data Entry, Data Display,
Feedback) plus the three CAP adds (Data Visualization, Media, Editor); perception types use
four of them.
"""

from __future__ import annotations

from dataclasses import dataclass

NAVIGATION = "Navigation"
DATA_ENTRY = "Data Entry"
DATA_DISPLAY = "Data Display"
FEEDBACK = "Feedback"
DATA_VISUALIZATION = "Data Visualization"
MEDIA = "Media"
EDITOR = "Editor"

ACTION_CATEGORIES: tuple[str, ...] = (NAVIGATION, DATA_ENTRY, DATA_DISPLAY, FEEDBACK,
                                      DATA_VISUALIZATION, MEDIA, EDITOR)
PERCEPTION_CATEGORIES: tuple[str, ...] = (DATA_DISPLAY, DATA_VISUALIZATION, MEDIA, EDITOR)


@dataclass(frozen=True, slots=True)
class ActionType:
    """An interactive operation on a UI component (Table B.1)."""

    id: str
    component: str
    name: str
    category: str
    description: str


@dataclass(frozen=True, slots=True)
class PerceptionType:
    """A visual-understanding requirement of a UI component (Table B.2)."""

    id: str
    component: str
    name: str
    category: str
    description: str


def _actions(category: str, first: int, *rows: tuple[str, str, str]) -> list[ActionType]:
    return [ActionType(f"AT{first + i:02d}", comp, name, category, desc)
            for i, (comp, name, desc) in enumerate(rows)]


def _perceptions(category: str, first: int, *rows: tuple[str, str, str]) -> list[PerceptionType]:
    return [PerceptionType(f"PT{first + i:02d}", comp, name, category, desc)
            for i, (comp, name, desc) in enumerate(rows)]


ACTION_TYPES: tuple[ActionType, ...] = (
    *_actions(
        NAVIGATION, 1,
        ("Dropdown", "Trigger & Select", "open a dropdown and pick an item"),
        ("Dropdown", "Multi-level Navigation", "walk nested dropdown menus to an item"),
        ("Menu", "Submenu Expansion", "expand submenus of a multi-level (mega) menu"),
        ("Pagination", "Page Turning", "move between pages by number or previous / next"),
        ("Pagination", "Page Jump", "type a page number to go straight to it"),
        ("Steps", "Multi-step Navigation", "go back and forth between the steps of a wizard"),
        ("Tabs", "Tab Panel Switch", "click a tab to show its panel"),
        ("Tabs", "Tab Bar Scrolling", "scroll a tab bar to reach hidden tabs"),
        ("Breadcrumb", "Path Navigation", "click a breadcrumb to go up the hierarchy"),
    ),
    *_actions(
        DATA_ENTRY, 10,
        ("Checkbox", "Multi-item Selection", "tick several boxes to combine filters"),
        ("Checkbox", "Select All/Inverse", "select all, invert or clear a selection"),
        ("Cascader", "Hierarchical Selection", "pick level by level in a cascading list"),
        ("Cascader", "Search-based Selection", "type to find a deep cascader option"),
        ("DatePicker", "Single Date Selection", "pick one date on a calendar panel"),
        ("DatePicker", "Date Range Selection", "pick a start and an end date"),
        ("DatePicker", "DateTime Selection", "pick a date together with a time"),
        ("Form", "Multi-field Completion", "fill a form with several kinds of input"),
        ("Select", "Dropdown Selection", "open a select and choose one or more values"),
        ("Select", "Search-filtered Selection", "type to narrow a select, then choose"),
        ("Slider", "Single Value Drag", "drag one knob to a value"),
        ("Slider", "Range Selection", "drag two knobs to set a range"),
        ("TimePicker", "Time Selection", "choose hour and minute"),
        ("TreeSelect", "Tree Node Selection", "expand a tree inside a select and pick nodes"),
        ("Upload", "File Upload", "upload a file by click or drag-and-drop"),
    ),
    *_actions(
        DATA_DISPLAY, 25,
        ("Calendar", "Date Selection", "click a date in a calendar view"),
        ("Calendar", "View Switch", "change the calendar's period or view (month, year)"),
        ("Card", "Click Trigger", "click a card, or a button on it, to open or act"),
        ("Card", "Hover Trigger", "hover a card or row to reveal its quick actions"),
        ("Carousel", "Slide Switch", "move a carousel by arrows, dots or dragging"),
        ("Collapse", "Panel Toggle", "expand or collapse a panel (accordion too)"),
        ("Image", "Preview Operations", "open an image preview to zoom, rotate or page"),
        ("Popover", "Popover Interaction", "open a popover and act inside it"),
        ("Table", "Column Sorting", "click a column header to sort"),
        ("Table", "Column Filtering", "filter a table through a column's filter"),
        ("Table", "Row Operations", "select, expand or act on table rows"),
        ("Tree", "Node Manipulation", "expand, select or drag tree nodes"),
        ("List", "Infinite Scroll", "scroll to the end to load more items"),
        ("List", "Item Click", "click a list item to open its detail page"),
        ("List", "Drag Reorder", "drag list items to a new place"),
    ),
    *_actions(
        FEEDBACK, 40,
        ("Drawer", "Drawer Operations", "open or close a side drawer"),
        ("Modal", "Modal Operations", "open or close a modal dialog"),
        ("Popconfirm", "Confirmation Action", "confirm or cancel an action at a confirm step"),
    ),
    *_actions(
        DATA_VISUALIZATION, 43,
        ("Chart", "Data Point Hover", "hover chart marks for their values"),
        ("Chart", "Legend Filtering", "toggle series through the legend"),
        ("Chart", "Zoom & Pan", "zoom into or pan across a chart"),
        ("Chart", "Data Drill-down", "click a chart mark to see finer data"),
        ("Map", "Zoom & Pan", "zoom and drag a map"),
        ("Map", "Marker Interaction", "click a map marker for its place"),
        ("Map", "Location Search", "search a place and move the map to it"),
        ("Map", "Route Planning", "set origin and destination for a route"),
        ("Map", "3D View Adjustment", "tilt and rotate a 3D map"),
        ("Map", "Street View", "enter street view, move and look around"),
        ("Panorama", "Panoramic Browsing", "drag to turn and scroll to zoom a panorama"),
        ("Panorama", "Hotspot Navigation", "click hotspots to change panorama scene"),
        ("Model3D", "Model Interaction", "rotate, zoom or reconfigure a 3D model"),
    ),
    *_actions(
        MEDIA, 56,
        ("Video", "Playback Control", "play, pause or seek a video"),
        ("Video", "Playback Settings", "change volume, speed, quality, captions, fullscreen"),
    ),
    *_actions(
        EDITOR, 58,
        ("TextEditor", "Text Editing", "edit rich text, symbols and formulas"),
        ("TextEditor", "Format & Content", "format text or insert media through a toolbar"),
        ("Spreadsheet", "Cell Editing", "select and edit spreadsheet cells"),
        ("Spreadsheet", "Formula Input", "enter cell formulas"),
        ("Spreadsheet", "Drag Fill", "drag a cell's handle to fill a range"),
        ("Canvas", "Element Manipulation", "select, move and resize canvas elements"),
        ("Canvas", "Node Connection", "drag between anchors to connect nodes"),
    ),
)

PERCEPTION_TYPES: tuple[PerceptionType, ...] = (
    *_perceptions(
        DATA_DISPLAY, 1,
        ("Tooltip", "Content Understanding", "read the text a hover tooltip shows"),
        ("Tooltip", "Type Recognition", "tell help, warning and error tooltips apart"),
        ("Calendar", "Date Marker Recognition", "spot dates carrying event or price marks"),
        ("Calendar", "Date State Recognition", "tell available, disabled, selected dates apart"),
        ("Card", "Image Content Understanding", "recognise what a card's image shows"),
        ("Card", "Visual Feature Extraction", "read colour, material, style from a card image"),
        ("Card", "Status & Badge Recognition", "read status marks and badge values on cards"),
        ("Carousel", "Image Content Understanding", "grasp what carousel slides show"),
        ("Carousel", "Embedded Text Recognition", "read text drawn into carousel images"),
        ("Carousel", "Position Awareness", "know which slide is showing (n of m)"),
        ("Image", "Object Recognition", "identify the objects in an image"),
        ("Image", "Scene Understanding", "grasp an image's scene (indoor, outdoor, use)"),
        ("Image", "Feature Extraction", "read colour, material, style from an image"),
        ("Image", "Text Recognition", "read text drawn into an image"),
        ("Image", "Cross-image Comparison", "compare images and find their differences"),
        ("Collapse", "Expansion State Awareness", "see whether a panel is open or closed"),
        ("Popover", "Content Understanding", "take in what a popover card holds"),
        ("List", "Content Understanding", "extract the key facts of list items"),
        ("List", "Sort State Awareness", "see how a list is currently sorted"),
        ("Table", "Data Understanding", "read table values by row and column"),
        ("Table", "Cell State Awareness", "see highlighted, disabled or flagged cells"),
        ("Table", "Sort State Awareness", "see a table's sort column and direction"),
        ("Table", "Cross-cell Understanding", "relate values across rows or columns"),
        ("Tree", "Hierarchy Understanding", "grasp a tree's levels and parents"),
        ("Tree", "Node State Awareness", "see which nodes are selected, open, disabled"),
        ("Tree", "Path Understanding", "follow the path from the root to a node"),
    ),
    *_perceptions(
        DATA_VISUALIZATION, 27,
        ("Chart", "Value Reading", "read values off a chart's geometry"),
        ("Chart", "Trend Identification", "tell rising, falling, turning series"),
        ("Chart", "Multi-series Comparison", "compare several series"),
        ("Chart", "Proportion Understanding", "read shares from pie or donut charts"),
        ("Chart", "Extrema Identification", "find a series' highest and lowest points"),
        ("Chart", "Anomaly Detection", "spot outliers and sudden changes"),
        ("Chart", "Legend Mapping", "match legend entries to series"),
        ("Map", "Marker Position Understanding", "place markers geographically"),
        ("Map", "Spatial Distribution Awareness", "see clusters and coverage of markers"),
        ("Map", "Route Understanding", "read a route's path, distance and time"),
        ("Map", "Region Boundary Understanding", "read regions and their borders"),
        ("Map", "View State Awareness", "know the map's mode (2D, 3D, street) and tilt"),
        ("Map", "Street View Understanding", "grasp buildings and roads in street view"),
        ("Map", "Street View Orientation", "know which way street view faces"),
        ("Map", "3D Occlusion Understanding", "grasp what hides what in a 3D map"),
        ("Panorama", "Spatial Layout Understanding", "grasp a room's layout in a panorama"),
        ("Panorama", "Hotspot Recognition", "find a panorama's hotspots"),
        ("Panorama", "Orientation Awareness", "know which way a panorama faces"),
        ("Panorama", "Environment Understanding", "grasp the decor and furniture shown"),
        ("Model3D", "Structure Understanding", "grasp a 3D model's parts"),
        ("Model3D", "Material Perception", "read a model's materials and colours"),
        ("Model3D", "Proportion Perception", "judge a model's relative sizes"),
        ("Model3D", "Viewpoint Recognition", "know the angle a model is seen from"),
    ),
    *_perceptions(
        MEDIA, 50,
        ("Video", "Frame Content Understanding", "recognise what a video frame shows"),
        ("Video", "Playback State Awareness", "see whether a video plays, pauses, buffers"),
        ("Video", "Progress Position Awareness", "know the position within the video"),
    ),
    *_perceptions(
        EDITOR, 53,
        ("Spreadsheet", "Data Understanding", "grasp a sheet's data and formulas"),
        ("Spreadsheet", "Format Semantics", "read conditional formats and colour codes"),
        ("Canvas", "Element Recognition", "identify shapes, lines and text on a canvas"),
        ("Canvas", "Relation & Layout Understanding", "follow a canvas' links and layout"),
    ),
)

_ACTIONS = {t.id: t for t in ACTION_TYPES}
_PERCEPTIONS = {t.id: t for t in PERCEPTION_TYPES}


def action_type(type_id: str) -> ActionType:
    """The action type with id ``AT01`` .. ``AT64``; KeyError for any other."""
    return _ACTIONS[type_id]


def perception_type(type_id: str) -> PerceptionType:
    """The perception type with id ``PT01`` .. ``PT56``; KeyError for any other."""
    return _PERCEPTIONS[type_id]


def action_types_in(category: str) -> tuple[ActionType, ...]:
    return tuple(t for t in ACTION_TYPES if t.category == category)


def perception_types_in(category: str) -> tuple[PerceptionType, ...]:
    return tuple(t for t in PERCEPTION_TYPES if t.category == category)
