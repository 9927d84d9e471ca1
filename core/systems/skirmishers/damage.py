"""What marks on a card do to the unit at once (L312, L596, L841-L847, L644-L648, L744-L746)."""

from __future__ import annotations

from core.changes import Working
from core.game import Game
from core.systems.skirmishers.common import bonus, options, soldier, track
from core.systems.skirmishers.state import SkUnit
from core.systems.skirmishers.walk import Card


def _add(conds: list[str], *keys: str) -> list[str]:
    return [*conds, *(k for k in keys if k not in conds)]


def _vehicle(game: Game, work: Working, s: int, u: int) -> list[str]:
    """A moving vehicle whose damage rules out its mode, or whose driver dies, wipes out (L736, L746)."""
    from core.systems.skirmishers.vehicles import vehicle_damage_note

    text, _ = vehicle_damage_note(game, work, s, u)
    return [f"{text}; apply its damage with Take damage (L757-L759)"] if text else []


def after_hits(game: Game, work: Working, s: int, u: int, card: Card) -> str:
    """Put ``card`` on unit (s, u) of the working copy and apply what follows; a note in words.

    * the shared damage count is the card's current column (HP lost), destroyed at DEAD or DX;
    * a trooper whose AP spent this turn is at least its new max AP falls prone and stops
      (L312 read as digest AMB-9; the printed comparison with ``collapse_literal``);
    * a flyer whose AP drops falls prone (L596);
    * power armor: 9 or more bludgeoning in one turn knocks it prone (L841, AMB-53); each starred
      cell crossed lets the opponent disable a weapon, two stop the jet pack (L845-L847, AMB-54);
    * a vehicle's HP sets the best movement mode left (L646).
    """
    unit = game.sides[s].units[u]
    prof = soldier(unit)
    trk = track(prof)
    before = SkUnit.of(unit)
    old_col = trk.column(tuple(before.cells))
    st = before.model_copy(deep=True)
    st.cells, st.armor, st.blunt_turn, st.guard = list(card.cells), card.armor, card.blunt, list(card.guard)
    col = trk.column(card.cells)
    state = work.state(s, u)
    state.damage = col
    state.extra = st.model_dump(mode="json")
    notes: list[str] = []
    lost_armor = before.armor - card.armor + sum(g > 0 for g in card.guard) - sum(g > 0 for g in before.guard)
    if lost_armor:
        notes.append(f"{lost_armor} armor cell{'s' if lost_armor != 1 else ''} lost")
    if trk.dead(card.cells):
        state.destroyed = True
        notes.append(f"{unit.name} is {'destroyed' if trk.end == 'DX' else 'dead'}")
        return ", ".join([*notes, *_vehicle(game, work, s, u)])
    if col != old_col:
        notes.append(f"{unit.name} now at {trk.hp_label(col)}")
    conds = list(state.conditions)
    if prof.kind == "vehicle":
        mode = trk.modes[col]
        if col != old_col:
            notes.append("it cannot move" if mode == "none" else f"best movement mode {mode}")
        state.conditions = conds
        return ", ".join([*notes, *_vehicle(game, work, s, u)])
    b = bonus(game, prof)
    new_ap = trk.max_ap(col, b)
    old_ap = trk.max_ap(old_col, b)
    if col == trk.cells - 1 and prof.kind == "trooper":
        notes.append("out of action (0 AP)")
    collapse = new_ap >= st.ap_spent if options(game).collapse_literal else st.ap_spent >= new_ap
    if new_ap < old_ap and collapse:
        conds = _add(conds, "prone", "stopped")
        notes.append(f"falls prone and stops ({st.ap_spent} AP spent, max now {new_ap})")
    if new_ap < old_ap and "flying" in conds:
        conds = _add([c for c in conds if c != "flying"], "prone")
        notes.append("falls to the ground, prone (L596)")
    if prof.kind == "power_armor":
        if card.blunt >= 9 and before.blunt_turn < 9:
            conds = _add(conds, "prone")
            notes.append("knocked prone by 9 bludgeoning this turn (L841)")
        stars_before = sum(1 for i in trk.stars if before.cells[i] == 2)
        stars_now = sum(1 for i in trk.stars if card.cells[i] == 2)
        for _ in range(stars_now - stars_before):
            notes.append("a starred cell: the opponent picks a weapon to disable (L845)")
        if stars_now >= 2 and stars_before < 2:
            conds = _add(conds, "jet_pack_lost")
            notes.append("the jet pack no longer works (L847)")
    state.conditions = conds
    return ", ".join(notes)
