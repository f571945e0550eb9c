"""Templates whose target is a menu item of a named restaurant: open the restaurant, open the
dishes of one menu section in the item modal, add the one the instruction describes."""

from __future__ import annotations

import random
from typing import Any

from webmdp.core.model import Entity, World
from webmdp.core.site import Site
from webmdp.core.spec import Action
from webmdp.sites.food import vocab as V
from webmdp.sites.food.templates.common import (
    explore_menu,
    host,
    host_avoid,
    host_items,
    in_cart,
    item_pins,
    restaurant_name,
    sections_with,
    spec,
)
from webmdp.sites.food.world import dietary_for
from webmdp.tasks.model import Condition
from webmdp.tasks.template import Draft, TaskTemplate
from webmdp.tasks.verifier import commit_conditions

ADD_ONE = Action("AddToCart", {"quantity": 1})


class ItemTemplate(TaskTemplate):
    """A host restaurant, one menu section, the target dish and its hard negatives there."""

    commit_action = "AddToCart"
    card: tuple[str, ...] = ("section",)
    detail: tuple[str, ...] = ()
    spare = 0
    """Dishes the section must offer beyond the target and its hard negatives (decoys)."""

    def pins(self, rng: random.Random, cuisine: str, section: str, names: list[str],
             k: int) -> tuple[tuple[Entity, ...], dict[str, Any]]:
        raise NotImplementedError

    def sentence(self, p: dict[str, Any]) -> str:
        raise NotImplementedError

    def pick_section(self, rng: random.Random, k: int) -> tuple[str, str]:
        cuisine = rng.choice([c for c in V.CUISINES if sections_with(c, k + 1 + self.spare)])
        return cuisine, rng.choice(sections_with(cuisine, k + 1 + self.spare))

    def draft(self, site: Site, rng: random.Random, hard_negatives: int) -> Draft:
        cuisine, section = self.pick_section(rng, hard_negatives)
        name = restaurant_name(rng, cuisine)
        dishes = [d[0] for d in V.MENUS[cuisine][section]]
        names = rng.sample(dishes, hard_negatives + 1 + self.spare)
        pinned, params = self.pins(rng, cuisine, section, names, hard_negatives)
        params = {"restaurant": name, "section": section, "what": V.SINGULAR[section],
                  **params}
        return Draft(instruction=self.sentence(params), params=params,
                     spec=spec((host(name, cuisine), *pinned), host_avoid(name, section)),
                     card_fields=self.card, detail_fields=self.detail)

    def candidates(self, d: Draft, world: World) -> list[Entity]:
        return host_items(world, d.params["restaurant"], d.params["section"])

    def reach(self, d: Draft, world: World, site: Site) -> list[Action]:
        return explore_menu(site, world, d)

    def oracle(self, d: Draft, world: World, site: Site) -> list[Action]:
        return [*self.reach(d, world, site), ADD_ONE]

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        return in_cart(d)


class WithoutAllergen(ItemTemplate):
    """Detail-only target: the allergen list is only in the item modal."""

    name = "dish_without_allergen"
    description = "Open a restaurant, check dishes' allergens, add the one without an allergen"
    detail = ("allergens",)

    def pins(self, rng: random.Random, cuisine: str, section: str, names: list[str],
             k: int) -> tuple[tuple[Entity, ...], dict[str, Any]]:
        allergen = rng.choice(V.ALLERGENS[:5])
        pool = [a for a in V.ALLERGENS if a != allergen]

        def mix(extra: list[str]) -> list[str]:
            picked = set(rng.sample(pool, rng.randint(0, 2))) | set(extra)
            return [a for a in V.ALLERGENS if a in picked]

        negs = [{"allergens": mix([allergen])} for _ in range(k)]
        return item_pins(rng, section, names, {"allergens": mix([])}, negs), \
            {"allergen": allergen}

    def sentence(self, p: dict[str, Any]) -> str:
        return (f"From '{p['restaurant']}', add a {p['what']} that contains no "
                f"{p['allergen']} to your cart.")

    def matches(self, d: Draft, world: World) -> list[str]:
        return [e["id"] for e in self.candidates(d, world)
                if d.params["allergen"] not in e["allergens"]]


class LowestCalorie(ItemTemplate):
    """Comparison over a detail field: every dish of the section must be opened."""

    name = "lowest_calorie_dish"
    description = "Compare the calories of a section's dishes, add the lightest"
    detail = ("calories",)

    def pins(self, rng: random.Random, cuisine: str, section: str, names: list[str],
             k: int) -> tuple[tuple[Entity, ...], dict[str, Any]]:
        cals = sorted(rng.sample(range(260, 1300, 10), k + 1))
        negs = [{"calories": c} for c in cals[1:]]
        return item_pins(rng, section, names, {"calories": cals[0]}, negs), {}

    def sentence(self, p: dict[str, Any]) -> str:
        return (f"From '{p['restaurant']}', add the {p['what']} with the fewest calories "
                "to your cart.")

    def reach(self, d: Draft, world: World, site: Site) -> list[Action]:
        return explore_menu(site, world, d, all_negatives=True)

    def matches(self, d: Draft, world: World) -> list[str]:
        cands = self.candidates(d, world)
        low = min((e["calories"] for e in cands), default=None)
        return [e["id"] for e in cands if e["calories"] == low]


class CheapestVegan(ItemTemplate):
    """Superlative over a card field (price) restricted by a detail field (dietary tags);
    the dietary switch on the list narrows restaurants to those with vegan dishes."""

    name = "cheapest_vegan_dish"
    description = "Filter vegan restaurants, open one, add its cheapest vegan dish of a section"
    card, detail = ("section", "price"), ("dietary",)
    spare = 1

    def pins(self, rng: random.Random, cuisine: str, section: str, names: list[str],
             k: int) -> tuple[tuple[Entity, ...], dict[str, Any]]:
        price = round(rng.uniform(8, 16), 0) - 0.01
        negs = [{"dietary": rng.choice(([], ["vegetarian"], ["gluten-free"],
                                        ["vegetarian", "gluten-free"]))} for _ in range(k)]
        group = item_pins(rng, section, names[:-1],
                          {"dietary": ["vegan", "vegetarian"]}, negs)
        group = tuple({**e, "price": price} for e in group)
        decoy = {"kind": "item", "restaurant_key": "host", "section": section, "role": "filler",
                 "name": names[-1], "dietary": ["vegan", "vegetarian", "gluten-free"],
                 "price": round(price + rng.choice((1.0, 2.5, 4.0)), 2)}
        return (*group, decoy), {}

    def sentence(self, p: dict[str, Any]) -> str:
        return (f"From '{p['restaurant']}', add the cheapest vegan {p['what']} to your cart.")

    def reach(self, d: Draft, world: World, site: Site) -> list[Action]:
        return explore_menu(site, world, d,
                            before=(Action("ToggleDietary", {"diet": "vegan"}),))

    def matches(self, d: Draft, world: World) -> list[str]:
        cands = [e for e in self.candidates(d, world) if "vegan" in e["dietary"]]
        low = min((e["price"] for e in cands), default=None)
        return [e["id"] for e in cands if e["price"] == low]


class WithIngredient(ItemTemplate):
    """Detail-only target: the description names the ingredient."""

    name = "dish_with_ingredient"
    description = "Read dish descriptions, add the one made with an ingredient"
    detail = ("description",)

    def pins(self, rng: random.Random, cuisine: str, section: str, names: list[str],
             k: int) -> tuple[tuple[Entity, ...], dict[str, Any]]:
        menu = {d[0]: d for d in V.MENUS[cuisine][section]}
        texts = {n: f"{n} made with {menu[n][2]}.".lower() for n in names}
        for i, n in enumerate(names):
            parts = menu[n][2].replace(" and ", ", ").split(", ")
            unique = [w for w in parts if not any(w.lower() in texts[o] for o in names if o != n)]
            if unique:
                names = [n, *names[:i], *names[i + 1:]]
                ingredient = rng.choice(unique)
                break
        else:  # every ingredient is shared: fall back to the dish's own name
            ingredient = names[0].lower()
        return item_pins(rng, section, names, {}, [{} for _ in range(k)]), \
            {"ingredient": ingredient}

    def sentence(self, p: dict[str, Any]) -> str:
        return (f"From '{p['restaurant']}', add the {p['what']} made with "
                f"{p['ingredient']} to your cart.")

    def matches(self, d: Draft, world: World) -> list[str]:
        return [e["id"] for e in self.candidates(d, world)
                if d.params["ingredient"].lower() in e["description"].lower()]


class Customize(ItemTemplate):
    """Multi-field commit in the item modal: two option groups and a quantity."""

    name = "customize_dish"
    description = "Find the dish offering a protein, choose options and quantity, add it"
    detail = ("options",)

    def pick_section(self, rng: random.Random, k: int) -> tuple[str, str]:
        pairs = [(c, s) for c in V.CUISINES for s in sections_with(c, k + 1)
                 if V.SECTION_GROUPS.get(s, ("",))[0] == "Protein"]
        return rng.choice(pairs)

    def pins(self, rng: random.Random, cuisine: str, section: str, names: list[str],
             k: int) -> tuple[tuple[Entity, ...], dict[str, Any]]:
        proteins = V.OPTION_GROUPS["Protein"]
        protein = rng.choice(proteins[1:])
        second = V.SECTION_GROUPS[section][1]
        seconds = V.OPTION_GROUPS[second]
        choice2 = rng.choice(seconds[1:])

        def groups(with_protein: bool) -> list[list]:
            pool = [p for p in proteins[1:] if p != protein]
            ps = rng.sample(pool, 2) + ([protein] if with_protein else [])
            return [["Protein", [proteins[0], *[p for p in proteins[1:] if p in ps]]],
                    [second, list(seconds)]]

        negs = [{"options": groups(False)} for _ in range(k)]
        qty = rng.randint(2, 4)
        return item_pins(rng, section, names, {"options": groups(True)}, negs), \
            {"protein": protein, "group2": second, "choice2": choice2, "quantity": qty}

    def sentence(self, p: dict[str, Any]) -> str:
        return (f"From '{p['restaurant']}', order {p['quantity']} servings of the {p['what']} "
                f"that can be made with {p['protein']}: choose {p['protein']} as the protein and "
                f"{p['choice2']} for {p['group2'].lower()}.")

    def customise(self, d: Draft) -> list[Action]:
        p = d.params
        return [Action("SelectOption", {"group": "Protein", "choice": p["protein"]}),
                Action("SelectOption", {"group": p["group2"], "choice": p["choice2"]}),
                Action("AddToCart", {"quantity": p["quantity"]})]

    def oracle(self, d: Draft, world: World, site: Site) -> list[Action]:
        return [*self.reach(d, world, site), *self.customise(d)]

    def expected(self, d: Draft) -> dict[str, Any]:
        p, t = d.params, d.target
        return {f"qty.{t}": p["quantity"], f"option.{t}.Protein": p["protein"],
                f"option.{t}.{p['group2']}": p["choice2"]}

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        return [*in_cart(d), *commit_conditions("cart", self.expected(d), "cart line")]

    def matches(self, d: Draft, world: World) -> list[str]:
        return [e["id"] for e in self.candidates(d, world)
                if d.params["protein"] in dict(e["options"]).get("Protein", ())]


class GlutenFree(ItemTemplate):
    """Dietary tags (detail) pick the dish; used by the cart-quantity template."""

    name = "gluten_free_dish"
    description = "Add the gluten-free dish of a section"
    detail = ("dietary",)

    def pins(self, rng: random.Random, cuisine: str, section: str, names: list[str],
             k: int) -> tuple[tuple[Entity, ...], dict[str, Any]]:
        def tags(gf: bool) -> list[str]:
            allergens = [] if gf else ["gluten"]
            return [t for t in dietary_for(allergens, rng) if t != "gluten-free"] + \
                (["gluten-free"] if gf else [])

        negs = [{"dietary": tags(False)} for _ in range(k)]
        return item_pins(rng, section, names, {"dietary": tags(True)}, negs), {}

    def sentence(self, p: dict[str, Any]) -> str:
        return f"From '{p['restaurant']}', add the gluten-free {p['what']} to your cart."

    def matches(self, d: Draft, world: World) -> list[str]:
        return [e["id"] for e in self.candidates(d, world) if "gluten-free" in e["dietary"]]

