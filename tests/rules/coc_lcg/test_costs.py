"""Domains, resources and paying costs: CoC-R67..R74, R104, R105, R107, A11..A13, examples Bag Man,
T-Men and Deep One Assault."""

from __future__ import annotations

import pytest

from rules.core import RuleError
from rules.coc_lcg import table as T
from tests.rules.coc_lcg.helpers import ENGINE, Table

AG, SY, CT, NE = "agency-blackwood-file-clerk", "syndicate-bag-man", "cthulhu-young-deep-one", "neutral-45-pistols"


def _err(t: Table, card: str, dom: int | None) -> str | None:
    e = T.payment_error(t.s, t.s.active, card, dom)
    return e[0] if e else None


def test_bag_man_example_r69_r70() -> None:
    """CoC-R69/R70 (Bag Man): drain ONE domain with at least 3 resources, one of them Syndicate."""
    t = Table(active=0)
    bag = t.hand(0, SY)
    t.res(0, 0, SY, SY)  # too small
    t.res(0, 1, AG, AG, AG)  # no match
    t.res(0, 2, AG, AG, SY, AG)  # fine, overpaying by one
    assert _err(t, bag, 0) == "coc.domain_too_small"
    assert _err(t, bag, 1) == "coc.no_resource_match"
    assert _err(t, bag, 2) is None
    t.operations()
    assert {a.domain for a in t.legal(0) if a.type == "play" and a.card == bag} == {2}
    t.play(bag, 2)
    assert t.s.players[0].domains[2].drained and bag in t.s.play
    assert not t.s.players[0].domains[0].drained  # never split over domains


def test_r71_a_drained_domain_cannot_pay_again() -> None:
    """CoC-R71: a drained domain pays nothing until refreshed."""
    t = Table(active=0)
    a, b = t.hand(0, AG), t.hand(0, AG)
    t.res(0, 0, AG, AG, AG)
    t.operations()
    t.play(a, 0)
    t.pass_()  # the opponent's answer
    with pytest.raises(RuleError) as e:
        ENGINE.apply(t.s, "a", {"type": "play", "card": b, "domain": 0})
    assert e.value.code == "coc.domain_drained"


def test_r72_zero_cost_drains_nothing() -> None:
    """CoC-R72: a 0-cost card drains no domain and needs no match."""
    t = Table(active=0)
    p = t.hand(0, NE)
    host = t.put(0, AG)
    t.res(0, 0, CT)
    assert _err(t, p, None) is None and _err(t, p, 0) == "coc.zero_cost_drains_nothing"
    t.operations()
    t.play(p, None)
    assert t.s.play[p].host == host
    assert not any(d.drained for d in t.s.players[0].domains)


def test_r68_a13_neutral_resources_count_but_never_match() -> None:
    """CoC-R68/A13: a neutral resource adds 1 to the total but is no faction's resource."""
    t = Table(active=0)
    c = t.hand(0, AG)
    t.res(0, 0, NE, NE)
    t.res(0, 1, NE, AG)
    assert _err(t, c, 0) == "coc.no_resource_match"
    assert _err(t, c, 1) is None


def test_deep_one_assault_example_r104_loyal() -> None:
    """CoC-R104 (Deep One Assault): Loyal needs the whole cost in the card's faction."""
    t = Table(active=0)
    doa = t.hand(0, "cthulhu-deep-one-assault")
    t.res(0, 0, CT, AG, AG, AG)
    t.res(0, 1, CT, CT, CT, CT)
    t.put(1, AG)
    assert _err(t, doa, 0) == "coc.loyal" and _err(t, doa, 1) is None


def test_t_men_example_r105_steadfast() -> None:
    """CoC-R105/R74 (T-Men): 2 Agency resources across all domains, drained ones count, plus one domain
    with 5 resources and an Agency match."""
    t = Table(active=0)
    tm = t.hand(0, "agency-t-men")
    t.res(0, 0, AG, CT, CT, CT, CT)
    assert _err(t, tm, 0) == "coc.steadfast"
    t.res(0, 1, AG)
    t.s.players[0].domains[1].drained = True
    assert _err(t, tm, 0) is None


def test_r107_a12_transient_counts_two_and_is_discarded_when_drained() -> None:
    """CoC-R107/A12: a Transient resource gives 2 (also for Loyal/Steadfast) and is discarded whenever
    its domain is drained, after paying."""
    t = Table(active=0)
    g = t.hand(0, "agency-g-men")  # cost 6
    sheriff = t.res(0, 0, "agency-local-sheriff", AG, AG, AG, AG)[0]  # 2 + 4 = 6
    assert T.domain_value(t.s, 0, 0) == 6 and T.faction_total(t.s, 0, "agency") == 6
    t.operations()
    t.play(g, 0)
    assert g in t.s.play
    assert sheriff not in t.s.players[0].domains[0].resources and sheriff in t.s.players[0].discard


def test_a11_x_cost_is_the_drained_domain_value() -> None:
    """CoC-A11 (Shotgun Blast): X is the total of the drained domain; X 0 drains nothing."""
    t = Table(active=0)
    blast = t.hand(0, "agency-shotgun-blast")
    t.res(0, 0, AG, AG, AG)
    weak, strong = t.put(1, "cthulhu-young-deep-one"), t.put(1, "agency-g-men")  # skill 0 and 6
    t.operations()
    assert T.play_cost(t.s, 0, blast, 0) == 3 and T.play_cost(t.s, 0, blast, None) == 0
    t.play(blast, 0)
    assert t.options() == [weak] or weak not in t.s.play  # only skill <= 3
    assert strong in t.s.play


def test_r73_ability_costs_need_no_match_and_one_domain() -> None:
    """CoC-R73: "pay N" drains one domain of N or more, any faction."""
    t = Table(active=0)
    club = t.put(0, "neutral-gentlemans-club")
    t.res(0, 0, CT)
    t.res(0, 1, CT, CT)
    t.operations()
    uses = [a for a in t.legal(0) if a.type == "use" and a.card == club]
    assert [a.domain for a in uses] == [1]
    t.use(club, 0, 1)
    assert t.s.play[club].exhausted and t.s.players[0].domains[1].drained and len(t.s.players[0].hand) == 1
