"""Blueprint ``lab``: the exercise lab (``/tree``: type a tree, see minimax or alpha-beta on it,
or answer and be checked), and how trees grow (``/tree/growth``)."""
from __future__ import annotations

from flask import Blueprint, request

from ai.teach.exercise import Answer, check as check_answer
from ai.teach.exercise_tree import RANDOM_DEPTHS
from ai.teach.growth import growth

from .charts import growth_chart
from .i18n import num
from .admission import in_lane, in_this_request, offload
from .exercise import (COURSE_TREE_TITLES, LAB_EXAMPLES, LabPanel, new_seed, parse_answer,
                       parse_kept_lab, parse_lab, remember_tries, source_params,
                       with_remembered_tries)
from .htmx import render
from .notation import use_lab_values
from .i18n import tr
from .params import BadRequest, as_bad_request, read_int

bp = Blueprint("lab", __name__)


@bp.get("/tree")
@in_lane()          # the whole page in a slot of the pages' lane, off the loop (web.admission)
def lab():
    """The exercise lab: a tree (the course's, a random one from a seed, or typed), minimax or
    alpha-beta shown on it step by step, or asked as an exercise and marked."""
    # all of it off the loop: parsing and solving a tree of up to 400 nodes (a wrong link's
    # 400 keeps what was right: the tree parsed once more at most), its panel, the marking and
    # the drawing (tens of ms), which on the loop made every plain page of the worker wait
    # (issue 22's lab attack, issue 37's wrong links)
    return offload(in_this_request(lab_page))


def lab_page():
    """The lab's page for this request (in a lane slot, off the loop: ``lab``)."""
    lab = None
    try:
        lab = parse_lab(request.args)
        use_lab_values(lab)         # the course's window: ±maxScore written ±M (notation=course)
        step = None
        if request.args.get("step") not in (None, ""):
            step = read_int(request.args, "step", 0, 0, len(lab["solved"].result.tree.events))
        panel = LabPanel(lab["solved"], request.args, step, exercise=lab["mode"] == "exercise")
        report, answer = None, Answer()
        if lab["mode"] == "exercise" and request.args.get("check") == "1":
            answer = with_remembered_tries(parse_answer(request.args, lab["max_score"]), lab,
                                           request.cookies)
            try:
                report = check_answer(lab["solved"], answer)
            except ValueError as err:
                raise as_bad_request(err) from None
    except BadRequest as err:
        # the tree kept: the link's own when only its step or answer was wrong (not parsed
        # again), else the part of the link that was right (parse_lab failed on the whole)
        lab, args = (lab, request.args) if lab is not None else parse_kept_lab(
            request.args, whole_failed=True)
        use_lab_values(lab)         # the tree kept is written as when the link was right: ±M
        return render("lab.html", block="lab", status=400, error=tr(err), lab=lab,
                      panel=LabPanel(lab["solved"], args, exercise=lab["mode"] == "exercise"),
                      report=None, answer=Answer(), **lab_links(lab))
    response = render("lab.html", block="lab", error=None, lab=lab, panel=panel, report=report,
                      answer=answer, **lab_links(lab))
    if report is not None:       # its wrong tries kept by the browser, not only by the link
        remember_tries(response, lab, request.cookies, report.tries_after(answer.tries))
    return response


def lab_links(lab: dict) -> dict:
    """What the page offers besides the tree: the examples, the course's trees, a new random
    tree (its seed drawn now, kept by its link), and the link's part naming this tree."""
    return dict(examples=LAB_EXAMPLES, course_trees=COURSE_TREE_TITLES, new_seed=new_seed(),
                source=source_params(lab), random_depths=RANDOM_DEPTHS)


@bp.get("/tree/growth")
@in_lane()
def tree_growth():
    """O(b^m) made visible: nodes visited on uniform trees of branching b, depth 1 to m, by
    minimax and alpha-beta (random and best order), beside the formulas."""
    status, error = 200, None
    try:
        b = read_int(request.args, "b", 3, 2, 6)
        m = read_int(request.args, "m", 5, 1, 8)
        rows = offload(lambda: growth(b, m))
    except BadRequest as err:
        b, m, rows, status, error = 3, 5, growth(3, 5), 400, tr(err)
    except ValueError as err:
        b, m, rows, status, error = 3, 5, growth(3, 5), 400, tr(err)
    return render("growth.html", block="growth", status=status, error=error, b=b, m=m, rows=rows,
                  chart=growth_chart(rows, label=num))

