"""Food Delivery task templates (WebSTEP H.1 style), 15 families.

Restaurant templates find a restaurant on the list and add a dish from its page (the commit is
the menu line's + button, so the restaurant is the last entity inspected). Item templates open
a named restaurant and the dishes of one menu section in the item modal, and add the one the
instruction describes; the cart and checkout templates then go on to the cart or the checkout
form, their multi-field commits verified one parameter at a time."""

from __future__ import annotations

from random import Random
from typing import Any, ClassVar

from webmdp.core.model import Entity, World, WorldSpec
from webmdp.core.spec import Action
from webmdp.sites._common.catalog import entities_where
from webmdp.sites._common.tasklib import FindTemplate, Pins, distinct
from webmdp.sites._common.templates import TARGET, Params, Step, Steps, perform
from webmdp.sites._common.worldgen import others, pin_group
from webmdp.sites.food import vocab as V
from webmdp.sites.food.world import N_RESTAURANTS, dietary_for, restaurant_name
from webmdp.tasks.model import Condition
from webmdp.tasks.template import Draft, TaskTemplate
from webmdp.tasks.verifier import commit_conditions, membership

ADD_ONE = Action("AddToCart", {"quantity": 1})
CHECKOUT = (Action("OpenCart"), Action("ProceedToCheckout"))
DELIVER = (*CHECKOUT, Step("PlaceOrder", "address", "tip"))
Restaurants = tuple[Entity, list[Entity], tuple[Entity, ...], Params]


def spec(pinned: tuple[Entity, ...], avoid: tuple[Entity, ...]) -> WorldSpec:
    restaurants = sum(1 for p in pinned if p.get("kind") != "item")
    return WorldSpec(pinned, N_RESTAURANTS - restaurants, avoid)


def find(world: World, **fields: Any) -> str:
    """The first entity with these field values (restaurants come before items)."""
    return str(entities_where(world, **fields)[0]["id"])


class RestaurantTemplate(FindTemplate):
    """A restaurant group (target + hard negatives) plus the dish to add from the target; the
    target differs from its hard negatives in the detail field ``unique`` (a param too)."""

    commit_action = "QuickAdd"
    opener = ("OpenRestaurant", "BackToRestaurants", "restaurant_id")
    unique = ""
    by = {"name": lambda p: Action("Search", {"query": p["restaurant"]}),
          "cuisine": lambda p: Action("SetCuisine", {"cuisine": p["cuisine"]}),
          "rating": lambda p: Action("SetMinRating", {"rating": p["floor"]}),
          "price": lambda p: Action("TogglePriceLevel", {"price": p["price"]}),
          "free": lambda p: Action("ToggleFreeDelivery"),
          "fast": lambda p: Action("ToggleFastDelivery")}

    def restaurants(self, rng: Random, cuisine: str, k: int) -> Restaurants:
        """(base, negatives, decoys, params) of one draft."""
        raise NotImplementedError

    def pins(self, rng: Random, k: int) -> Pins:
        cuisine = rng.choice(V.CUISINES)
        base, negs, decoys, params = self.restaurants(rng, cuisine, k)
        section = rng.choice(list(V.MENUS[cuisine]))
        dish = rng.choice(V.MENUS[cuisine][section])[0]
        target = {self.unique: params[self.unique], "key": "target"}
        group = pin_group(rng, {"cuisine": cuisine, **base}, target, negs)
        item = {"kind": "item", "restaurant_key": "target", "role": "companion",
                "name": dish, "section": section}
        return (*group, *decoys, item), {"cuisine": cuisine, "dish": dish, **params}

    def world(self, rng: Random, pinned: tuple[Entity, ...], p: Params) -> WorldSpec:
        chain = ({"name": p["restaurant"]},) if "restaurant" in p else ()
        return spec(pinned, ({"cuisine": p["cuisine"], self.unique: p[self.unique]}, *chain))

    def group(self, d: Draft, world: World) -> list[Entity]:
        return [e for e in super().group(d, world) if e["id"].startswith("RST")]

    def commit(self, d: Draft, world: World) -> list[Action]:
        dish = find(world, restaurant_id=d.target, name=d.params["dish"])
        return [Action("QuickAdd", {"item_id": dish})]

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        dish = find(world, restaurant_id=d.target, name=d.params["dish"])
        return [*membership(d, "cart.restaurants", "ordered from"),
                Condition(fact="cart.items", op="contains", value=dish,
                          description=f"{d.params['dish']} ({dish}) is in the cart")]


class OpenLate(RestaurantTemplate):
    """Card filters (cuisine, minimum rating) and a detail-only constraint (closing time)."""

    name = "open_late_rated"
    description = "Filter by cuisine and rating, check opening hours, add a dish"
    keys, card, detail, unique = ("cuisine",), ("rating",), ("hours",), "closes"
    narrow = ("cuisine", "rating")
    sentence = ("Find {article} {cuisine} restaurant rated {floor} or higher that is open until "
                "{closes}, and add its {dish} to your cart.")

    def restaurants(self, rng: Random, cuisine: str, k: int) -> Restaurants:
        floor = rng.choice(("4.0", "4.5"))
        rating = round(rng.uniform(float(floor), 4.9), 1)
        close = rng.choice(V.CLOSING[2:])
        negs = [{"closes": c} for c in others(rng, V.CLOSING, close, k)]
        return {"rating": rating}, negs, (), {"floor": floor, "closes": close}

    def words(self, p: Params) -> Params:
        return {**p, "article": "an" if p["cuisine"][0] in "AEIOU" else "a"}

    def fits(self, e: Entity, p: Params) -> bool:
        return e["closes"] == p["closes"] and e["rating"] >= float(p["floor"])


class FastestFreeDelivery(RestaurantTemplate):
    """Superlative over a card field (delivery time) after a flag filter; ties broken by
    a detail field (closing time)."""

    name = "fastest_free_delivery"
    description = "Free delivery, sort by delivery time, pick the fastest open late enough"
    keys, card, detail = ("cuisine",), ("delivery_fee", "delivery_time"), ("hours",)
    unique, best_by = "closes", "delivery_time"
    narrow, order = ("cuisine", "free"), "delivery_time"
    sentence = ("Order the {dish} from the fastest-delivering {cuisine} restaurant with a $0 "
                "delivery fee that stays open until {closes}.")

    def restaurants(self, rng: Random, cuisine: str, k: int) -> Restaurants:
        minutes = rng.randint(15, 32)
        close = rng.choice(V.CLOSING[2:])
        negs = [{"closes": c} for c in others(rng, V.CLOSING, close, k)]
        decoys = tuple({"cuisine": cuisine, "delivery_fee": 0.0, "closes": close,
                        "role": "filler", "delivery_time": minutes + rng.randint(3, 20)}
                       for _ in range(2))
        return {"delivery_fee": 0.0, "delivery_time": minutes}, negs, decoys, {"closes": close}

    def fits(self, e: Entity, p: Params) -> bool:
        return e["delivery_fee"] == 0.0 and e["closes"] == p["closes"]


class TopRatedOnStreet(RestaurantTemplate):
    """Price tier filter, sort by rating, and the address on the detail page."""

    name = "top_rated_on_street"
    description = "Filter cuisine and price tier, sort by rating, pick the best-rated on a street"
    keys, card, detail, unique = ("cuisine", "price"), ("rating",), ("address",), "street"
    best_by, highest = "rating", True
    narrow, order = ("cuisine", "price"), "rating"
    sentence = ("Order the {dish} from the highest-rated {price} {cuisine} restaurant located on "
                "{street}.")
    wants = {"street": "street"}

    def restaurants(self, rng: Random, cuisine: str, k: int) -> Restaurants:
        tier = rng.choice(V.PRICE_LEVELS[:3])
        rating = round(rng.uniform(4.3, 4.9), 1)
        street = rng.choice(V.STREETS)
        negs = [{"street": s} for s in others(rng, V.STREETS, street, k)]
        decoys = tuple({"cuisine": cuisine, "price": tier, "street": street, "role": "filler",
                        "rating": round(rating - rng.choice((0.1, 0.2, 0.4, 0.6)), 1)}
                       for _ in range(2))
        return ({"price": tier, "rating": rating}, negs, decoys,
                {"price": tier, "street": street})


class ChainLocation(RestaurantTemplate):
    """A chain with several locations under one name: the address tells them apart."""

    name = "chain_location"
    description = "Search a chain by name and order from the location on a given street"
    card, detail, unique = ("name",), ("address",), "street"
    narrow = ("name",)
    sentence = ("Add the {dish} from '{restaurant}' to your cart: order from its location on "
                "{street}.")
    wants = {"name": "restaurant", "street": "street"}

    def restaurants(self, rng: Random, cuisine: str, k: int) -> Restaurants:
        name = restaurant_name(rng, cuisine)
        street = rng.choice(V.STREETS)
        negs = [{"street": s} for s in others(rng, V.STREETS, street, k)]
        return {"name": name}, negs, (), {"restaurant": name, "street": street}


class LowestFeeFast(RestaurantTemplate):
    """The "Under 30 min" switch, sort by delivery fee, closing time on the detail page."""

    name = "lowest_fee_under_30"
    description = "Under 30 min, sort by delivery fee, pick the cheapest open late enough"
    keys, card, detail = ("cuisine",), ("delivery_fee", "delivery_time"), ("hours",)
    unique, best_by = "closes", "delivery_fee"
    narrow, order = ("cuisine", "fast"), "delivery_fee"
    sentence = ("Among {cuisine} restaurants that deliver in under 30 minutes, order the {dish} "
                "from the one with the lowest delivery fee that is open until {closes}.")

    def restaurants(self, rng: Random, cuisine: str, k: int) -> Restaurants:
        minutes = rng.randint(12, 29)
        fee = rng.choice(V.DELIVERY_FEES[:3])
        close = rng.choice(V.CLOSING[2:])
        negs = [{"closes": c} for c in others(rng, V.CLOSING, close, k)]
        decoys = tuple({"cuisine": cuisine, "delivery_time": rng.randint(12, 29),
                        "closes": close, "role": "filler",
                        "delivery_fee": rng.choice([f for f in V.DELIVERY_FEES if f > fee])}
                       for _ in range(2))
        return {"delivery_fee": fee, "delivery_time": minutes}, negs, decoys, {"closes": close}

    def fits(self, e: Entity, p: Params) -> bool:
        return e["closes"] == p["closes"] and e["delivery_time"] < 30


def sections_with(cuisine: str, n: int) -> list[str]:
    """Sections of a cuisine's menu offering at least ``n`` dishes."""
    return [s for s, dishes in V.MENUS[cuisine].items() if len(dishes) >= n]


def item_pins(rng: Random, section: str, names: list[str], target_extra: Entity,
              negatives: list[Entity]) -> tuple[Entity, ...]:
    """A target dish and its hard negatives on the host's menu, one dish name each."""
    base = {"kind": "item", "restaurant_key": "host", "section": section}
    group = pin_group(rng, base, target_extra, negatives)
    return tuple({**e, "name": n} for e, n in zip(group, names, strict=True))


class ItemTemplate(FindTemplate):
    """A host restaurant, one menu section, the target dish and its hard negatives there."""

    commit_action, marked = "AddToCart", ("cart.items", "in the cart")
    card: tuple[str, ...] = ("section",)
    opener = ("OpenItem", "CloseItem", "item_id")
    spare = 0
    """Dishes the section must offer beyond the target and its hard negatives (decoys)."""
    before: tuple[Action, ...] = ()
    """List filters applied before the host restaurant is opened."""
    steps: ClassVar[Steps] = (ADD_ONE,)

    def dishes(self, rng: Random, cuisine: str, section: str, names: list[str], k: int) -> Pins:
        """The pinned dishes (``names`` drawn from the section) and the template's params."""
        raise NotImplementedError

    def pick_section(self, rng: Random, k: int) -> tuple[str, str]:
        cuisine = rng.choice([c for c in V.CUISINES if sections_with(c, k + 1 + self.spare)])
        return cuisine, rng.choice(sections_with(cuisine, k + 1 + self.spare))

    def pins(self, rng: Random, k: int) -> Pins:
        cuisine, section = self.pick_section(rng, k)
        name = restaurant_name(rng, cuisine)
        names = rng.sample([d[0] for d in V.MENUS[cuisine][section]], k + 1 + self.spare)
        pinned, params = self.dishes(rng, cuisine, section, names, k)
        host = {"key": "host", "role": "companion", "name": name, "cuisine": cuisine}
        return (host, *pinned), {"restaurant": name, "section": section,
                                 "what": V.SINGULAR[section], **params, **self.more(rng)}

    def more(self, rng: Random) -> Params:
        """Params of the steps after the dish (a quantity, the checkout's fields)."""
        return {}

    def world(self, rng: Random, pinned: tuple[Entity, ...], p: Params) -> WorldSpec:
        """No other restaurant has the host's name; no filler dish shares the target's
        section."""
        return spec(pinned, ({"name": p["restaurant"]},
                             {"kind": "item", "restaurant_key": "host", "section": p["section"]}))

    def group(self, d: Draft, world: World) -> list[Entity]:
        rid = find(world, name=d.params["restaurant"])
        return [e for e in world.entities.values()
                if e.get("restaurant_id") == rid and e["section"] == d.params["section"]]

    def prefix(self, p: Params, world: World) -> list[Action]:
        """Search the host by name and open it."""
        name = p["restaurant"]
        return [Action("Search", {"query": name}), *self.before,
                Action("OpenRestaurant", {"restaurant_id": find(world, name=name)})]


class WithoutAllergen(ItemTemplate):
    """Detail-only target: the allergen list is only in the item modal."""

    name = "dish_without_allergen"
    description = "Open a restaurant, check dishes' allergens, add the one without an allergen"
    detail = ("allergens",)
    sentence = "From '{restaurant}', add a {what} that contains no {allergen} to your cart."

    def dishes(self, rng: Random, cuisine: str, section: str, names: list[str], k: int) -> Pins:
        allergen = rng.choice(V.ALLERGENS[:5])
        pool = [a for a in V.ALLERGENS if a != allergen]

        def mix(extra: list[str]) -> list[str]:
            picked = set(rng.sample(pool, rng.randint(0, 2))) | set(extra)
            return [a for a in V.ALLERGENS if a in picked]

        negs = [{"allergens": mix([allergen])} for _ in range(k)]
        return item_pins(rng, section, names, {"allergens": mix([])}, negs), \
            {"allergen": allergen}

    def fits(self, e: Entity, p: Params) -> bool:
        return p["allergen"] not in e["allergens"]


class LowestCalorie(ItemTemplate):
    """Comparison over a detail field: every dish of the section must be opened."""

    name = "lowest_calorie_dish"
    description = "Compare the calories of a section's dishes, add the lightest"
    detail, best_by, compare = ("calories",), "calories", True
    sentence = "From '{restaurant}', add the {what} with the fewest calories to your cart."

    def dishes(self, rng: Random, cuisine: str, section: str, names: list[str], k: int) -> Pins:
        cals = distinct(rng, range(260, 1300, 10), k + 1, highest=False)
        negs = [{"calories": c} for c in cals[1:]]
        return item_pins(rng, section, names, {"calories": cals[0]}, negs), {}


class CheapestVegan(ItemTemplate):
    """Superlative over a card field (price) restricted by a detail field (dietary tags);
    the dietary switch on the list narrows restaurants to those with vegan dishes."""

    name = "cheapest_vegan_dish"
    description = "Filter vegan restaurants, open one, add its cheapest vegan dish of a section"
    card, detail, best_by, spare = ("section", "price"), ("dietary",), "price", 1
    before = (Action("ToggleDietary", {"diet": "vegan"}),)
    sentence = "From '{restaurant}', add the cheapest vegan {what} to your cart."
    fixed = {"dietary": "vegan"}

    def dishes(self, rng: Random, cuisine: str, section: str, names: list[str], k: int) -> Pins:
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


class WithIngredient(ItemTemplate):
    """Detail-only target: the description names the ingredient."""

    name = "dish_with_ingredient"
    description = "Read dish descriptions, add the one made with an ingredient"
    detail = ("description",)
    sentence = "From '{restaurant}', add the {what} made with {ingredient} to your cart."

    def dishes(self, rng: Random, cuisine: str, section: str, names: list[str], k: int) -> Pins:
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

    def fits(self, e: Entity, p: Params) -> bool:
        return p["ingredient"].lower() in e["description"].lower()


class Customize(ItemTemplate):
    """Multi-field commit in the item modal: two option groups and a quantity."""

    name = "customize_dish"
    description = "Find the dish offering a protein, choose options and quantity, add it"
    detail = ("options",)
    sentence = ("From '{restaurant}', order {quantity} servings of the {what} that can be made "
                "with {protein}: choose {protein} as the protein and {choice2} for {second}.")

    def pick_section(self, rng: Random, k: int) -> tuple[str, str]:
        pairs = [(c, s) for c in V.CUISINES for s in sections_with(c, k + 1)
                 if V.SECTION_GROUPS.get(s, ("",))[0] == "Protein"]
        return rng.choice(pairs)

    def dishes(self, rng: Random, cuisine: str, section: str, names: list[str], k: int) -> Pins:
        proteins = V.OPTION_GROUPS["Protein"]
        protein = rng.choice(proteins[1:])
        second = V.SECTION_GROUPS[section][1]
        seconds = V.OPTION_GROUPS[second]
        choice2 = rng.choice(seconds[1:])

        def groups(with_protein: bool) -> list[list[Any]]:
            pool = [p for p in proteins[1:] if p != protein]
            ps = rng.sample(pool, 2) + ([protein] if with_protein else [])
            return [["Protein", [proteins[0], *[p for p in proteins[1:] if p in ps]]],
                    [second, list(seconds)]]

        negs = [{"options": groups(False)} for _ in range(k)]
        qty = rng.randint(2, 4)
        return item_pins(rng, section, names, {"options": groups(True)}, negs), \
            {"protein": protein, "group2": second, "choice2": choice2, "quantity": qty}

    def words(self, p: Params) -> Params:
        return {**p, "second": p["group2"].lower()}

    def fits(self, e: Entity, p: Params) -> bool:
        return p["protein"] in dict(e["options"]).get("Protein", ())

    def commit(self, d: Draft, world: World) -> list[Action]:
        p = d.params
        return [Action("SelectOption", {"group": "Protein", "choice": p["protein"]}),
                Action("SelectOption", {"group": p["group2"], "choice": p["choice2"]}),
                Action("AddToCart", {"quantity": p["quantity"]})]

    def expected(self, d: Draft) -> dict[str, Any]:
        p, t = d.params, d.target
        return {f"qty.{t}": p["quantity"], f"option.{t}.Protein": p["protein"],
                f"option.{t}.{p['group2']}": p["choice2"]}

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        return [*super().verifier(d, world),
                *commit_conditions("cart", self.expected(d), "cart line")]


class GlutenFree(ItemTemplate):
    """Dietary tags (detail) pick the dish; used by the cart-quantity template."""

    name = "gluten_free_dish"
    description = "Add the gluten-free dish of a section"
    detail = ("dietary",)
    sentence = "From '{restaurant}', add the gluten-free {what} to your cart."
    fixed = {"dietary": "gluten-free"}

    def dishes(self, rng: Random, cuisine: str, section: str, names: list[str], k: int) -> Pins:
        def tags(gf: bool) -> list[str]:
            allergens = [] if gf else ["gluten"]
            return [t for t in dietary_for(allergens, rng) if t != "gluten-free"] + \
                (["gluten-free"] if gf else [])

        negs = [{"dietary": tags(False)} for _ in range(k)]
        return item_pins(rng, section, names, {"dietary": tags(True)}, negs), {}


def delivery(rng: Random) -> Params:
    """A delivery address and a tip."""
    return {"address": rng.choice(V.ADDRESSES), "tip": rng.choice(V.TIPS[1:])}


def ordered(d: Draft, **expected: Any) -> list[Condition]:
    """The target is in the placed order, with every expected order field."""
    return [*membership(d, "order.items", "in the placed order"),
            *commit_conditions("order", {"placed": True, **expected})]


class AddTwoRemoveOne(WithoutAllergen):
    """Two dishes into the cart, then the second one out again."""

    name = "cart_add_two_remove_one"
    description = "Add a dish without an allergen and a named side, then remove the side"
    commit_action = "RemoveFromCart"
    sentence = ("From '{restaurant}', add a {what} that contains no {allergen} and the {extra} to "
                "your cart, then remove the {extra} from the cart.")

    def dishes(self, rng: Random, cuisine: str, section: str, names: list[str], k: int) -> Pins:
        pinned, params = super().dishes(rng, cuisine, section, names, k)
        other = rng.choice([s for s in V.MENUS[cuisine] if s != section])
        extra = rng.choice(V.MENUS[cuisine][other])[0]
        side = {"kind": "item", "restaurant_key": "host", "role": "companion",
                "section": other, "name": extra}
        return (*pinned, side), {**params, "extra": extra}

    def extra(self, d: Draft, world: World) -> str:
        rid = find(world, name=d.params["restaurant"])
        return find(world, restaurant_id=rid, name=d.params["extra"])

    def commit(self, d: Draft, world: World) -> list[Action]:
        extra = self.extra(d, world)
        return [ADD_ONE, Action("QuickAdd", {"item_id": extra}), Action("OpenCart"),
                Action("RemoveFromCart", {"item_id": extra})]

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        extra = self.extra(d, world)
        return [*super().verifier(d, world),
                Condition(fact="cart.items", op="not_contains", value=extra,
                          description=f"{d.params['extra']} ({extra}) was removed")]


class ChangeQuantity(GlutenFree):
    """Add a dish, then change its quantity on the cart page."""

    name = "cart_change_quantity"
    description = "Add the gluten-free dish, then set its quantity in the cart"
    commit_action = "UpdateQuantity"
    steps = (ADD_ONE, CHECKOUT[0], Step("UpdateQuantity", item_id=TARGET, quantity="quantity"))
    sentence = ("From '{restaurant}', add the gluten-free {what} to your cart, then change its "
                "quantity to {quantity} in the cart.")

    def more(self, rng: Random) -> Params:
        return {"quantity": rng.randint(2, 5)}

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        return [*super().verifier(d, world),
                *commit_conditions("cart", {f"qty.{d.target}": d.params["quantity"]})]


class DeliverWithTip(WithoutAllergen):
    """Checkout with a typed delivery address and a tip."""

    name = "checkout_delivery_tip"
    description = "Order a dish without an allergen for delivery to an address with a tip"
    commit_action, steps = "PlaceOrder", (ADD_ONE, *DELIVER)
    sentence = ("From '{restaurant}', order a {what} that contains no {allergen} for delivery to "
                "{address}, with a {tip} tip.")

    def more(self, rng: Random) -> Params:
        return delivery(rng)

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        p = d.params
        return ordered(d, fulfillment="delivery", address=p["address"], tip=p["tip"],
                       **{f"qty.{d.target}": 1})


class ScheduledPickup(LowestCalorie):
    """Checkout for pickup at a scheduled time (commit timing)."""

    name = "scheduled_pickup"
    description = "Order the lightest dish of a section for pickup at a given time"
    commit_action = "PlaceOrder"
    steps = (ADD_ONE, *CHECKOUT, Action("SetFulfillment", {"mode": "pickup"}),
             Step("SetDeliveryTime", slot="time"), Step("PlaceOrder", "tip"))
    sentence = ("From '{restaurant}', order the {what} with the fewest calories for pickup at "
                "{time}, leaving a {tip} tip.")

    def more(self, rng: Random) -> Params:
        return {"time": rng.choice(V.DELIVERY_TIMES[1:]), "tip": rng.choice(V.TIPS[1:])}

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        return ordered(d, fulfillment="pickup", time=d.params["time"], tip=d.params["tip"])


class CustomizeAndCheckout(Customize):
    """The full multi-field order: options, quantity, address and tip."""

    name = "customize_and_checkout"
    description = "Customise a dish, set the quantity, check out with address and tip"
    commit_action = "PlaceOrder"
    sentence = Customize.sentence[:-1] + ". Deliver it to {address} with a {tip} tip."

    def more(self, rng: Random) -> Params:
        return delivery(rng)

    def commit(self, d: Draft, world: World) -> list[Action]:
        return [*super().commit(d, world), *perform(DELIVER, d)]

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        p = d.params
        return [*membership(d, "order.items", "in the placed order"), *commit_conditions(
            "order", {**self.expected(d), "placed": True, "address": p["address"],
                      "tip": p["tip"]})]


TEMPLATES: dict[str, TaskTemplate] = {t.name: t for t in (
    OpenLate(), FastestFreeDelivery(), TopRatedOnStreet(), ChainLocation(), LowestFeeFast(),
    WithoutAllergen(), LowestCalorie(), CheapestVegan(), WithIngredient(), Customize(),
    AddTwoRemoveOne(), ChangeQuantity(), DeliverWithTip(), ScheduledPickup(),
    CustomizeAndCheckout(),
)}
