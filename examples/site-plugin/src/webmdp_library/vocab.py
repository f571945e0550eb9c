"""The library's vocabulary (genres, formats, branches, languages) and its catalogue: a search
box, genre and format filters, an "available now" flag and four sort orders."""

from __future__ import annotations

from webmdp.sites.toolkit import Catalog, Facet, Sort

GENRES = ("Mystery", "Science Fiction", "History", "Biography", "Poetry", "Cooking")
FORMATS = ("Hardcover", "Paperback", "Audiobook", "Large Print")
BRANCHES = ("Central", "Riverside", "Oak Hill", "Harbor", "Maple Grove")
LANGUAGES = ("English", "Spanish", "French", "German", "Portuguese", "Italian")
LOAN_DAYS = (7, 14, 21, 28)

TITLE_FIRST = ("The Silent", "A Winter", "The Last", "Beyond the", "The Glass", "Under the",
               "The Hidden", "A Distant", "The Copper", "Letters from the", "The Long",
               "Echoes of the")
TITLE_LAST = ("Harbor", "Orchard", "Archive", "Lantern", "Meridian", "Garden", "Frontier",
              "Kitchen", "Observatory", "River", "Cartographer", "Season")
AUTHOR_FIRST = ("Ada", "Bruno", "Clara", "Dmitri", "Elena", "Farid", "Greta", "Hugo", "Imani",
                "Jonas", "Keiko", "Lucia")
AUTHOR_LAST = ("Abbott", "Barros", "Castellanos", "Delacroix", "Eriksen", "Fontaine", "Gupta",
               "Halvorsen", "Ibarra", "Jansen", "Kowalczyk", "Lindqvist")

N_BOOKS = 36
PAGE_SIZE = 12

CATALOG = Catalog(
    surface="SearchResults",
    search_fields=("title", "author", "genre"),
    facets=(
        Facet("genre", "Genre", "one", "SetGenre", "category_navigation", field="genre",
              options=GENRES, param="genre"),
        Facet("format", "Format", "any", "ToggleFormat", "attribute_filtering", field="format",
              options=FORMATS, param="format"),
        Facet("available", "Available now", "flag", "ToggleAvailableNow",
              "availability_filtering", field="available"),
    ),
    sorts=(
        Sort("relevance", "Relevance", lambda e: -e["popularity"]),
        Sort("pages_asc", "Fewest pages", lambda e: e["pages"]),
        Sort("newest", "Newest first", lambda e: -e["year"]),
        Sort("title", "Title A-Z", lambda e: e["title"]),
    ),
    page_size=PAGE_SIZE,
)
