"""One notation, one naming for a class: the projector and the phones render the same step
of the search with the same strings (values +M/−M, nodes as the tree labels them, players
as the class names them), and a phone never shows what the projector still hides."""
import re

import pytest

from test_class_answering import bar, text
from test_classroom import start_class, student

# the 5-matches lesson in the course's notation: the person took 1, the AI 2; the tree
# replays the AI's search, at step 3 (it has not chosen yet)
REPLAY = ("/nim?n=5&k=3&mode=human-ai&moves=12&algo=alphabeta&depth=2&level=custom&tree=1"
          "&notation=course&window=course&step={step}")


@pytest.fixture()
def app(make_app):
    return make_app()


def step_events(html):
    return [text(e).strip() for e in re.findall(r'class="step-event"[^>]*>(.*?)</p>', html,
                                                 re.S)]


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_projector_and_a_phone_write_the_same_step_alike(app, lang):
    link = REPLAY.format(step=3)
    teacher, code, _ = start_class(app, link)
    projector = teacher.get(f"{link}&cls={code}&proj=1&lang={lang}").get_data(as_text=True)
    phone = student(app, code).get(f"/c/{code}?lang={lang}").get_data(as_text=True)
    said = step_events(projector)
    assert said and step_events(phone) == said
    node = "max 2 (after 1, 1)" if lang == "en" else "max 2 (après 1, 1)"
    assert node in said[0] and "α = −M, β = +M" in said[0]
    # players: the names the class uses, on both screens; no J0/J1 beside "Player 2"
    who = "Player 2" if lang == "en" else "Joueur 2"
    assert who in text(projector) and who in text(phone)
    live = text(phone[phone.index('id="class-live"'):])      # the class, not the site's menu
    assert not re.search(r"\bJ[01]\b", live)
    assert not re.search(r"\b[WLVD]\d\b", live)                 # never W1/D1 in ±M's class


def test_a_phone_hides_the_ai_s_move_until_the_projector_s_replay_ends(app):
    link = REPLAY.format(step=3)
    teacher, code, _ = start_class(app, link)
    phone = student(app, code)
    during = text(phone.get(f"/c/{code}").get_data(as_text=True))
    assert "1 move played" in during and "Viewing move" not in during
    end = teacher.get(f"{link}&cls={code}&proj=1").get_data(as_text=True)
    last = int(re.search(r"step (\d+) of (\d+)", text(end)).group(2))
    done = REPLAY.format(step=last)
    assert teacher.post(f"/class/{code}/sync", data={"link": done},
                        headers={"HX-Request": "true"}).status_code == 204
    after = text(phone.get(f"/c/{code}").get_data(as_text=True))
    assert "2 moves played" in after


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_question_names_its_node_as_the_projector_s_tree_does(app, lang):
    link = REPLAY.format(step=1).replace("mode=human-ai&moves=12", "mode=human-human")
    teacher, code, _ = start_class(app, link)
    asked = text(bar(teacher, code, f"ask?lang={lang}", kind="window"))
    node = "min 4 (after 1)" if lang == "en" else "min 4 (après 1)"
    assert node in asked
    phone = text(student(app, code).get(f"/c/{code}?lang={lang}").get_data(as_text=True))
    prompt = re.search(r"(What is α at [^?]+\?|Que vaut α [^?]+\?)", asked).group(1)
    assert prompt in phone


# Connect-4 and tic-tac-toe name a node by the moves on its edges, one by one, as the tree
# writes them on its edges: "max (after 4, 3)", never "max 43", which reads as forty-three
PATH_NAME = re.compile(r"\b(?:max|min) \((?:(?:after|après) \d(?:, \d)*|root|racine)\)")


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("game, moves, node", [("connect4", "4453", ("max", "4, 3")),
                                               ("tictactoe", "5128", ("max", "3, 9"))])
def test_a_phone_s_question_and_the_projector_s_narration_name_a_node_alike(app, lang, game,
                                                                            moves, node):
    link = (f"/{game}?moves={moves}&mode=human-human&algo=alphabeta&depth=2&level=custom"
            f"&tree=1&step={{step}}")
    teacher, code, _ = start_class(app, link.format(step=5))
    asked = text(bar(teacher, code, f"ask?lang={lang}", kind="window"))
    name = f"{node[0]} ({'after' if lang == 'en' else 'après'} {node[1]})"
    prompt = re.search(r"(What is α at [^?]+\?|Que vaut α [^?]+\?)", asked).group(1)
    assert name in prompt and PATH_NAME.search(prompt)
    phone = student(app, code)
    assert prompt in text(phone.get(f"/c/{code}?lang={lang}").get_data(as_text=True))
    # the step the question asks about: the projector enters that node, named the same way,
    # and the phone's narration says the same
    assert teacher.post(f"/class/{code}/sync", data={"link": link.format(step=6)},
                        headers={"HX-Request": "true"}).status_code == 204
    projector = teacher.get(f"{link.format(step=6)}&cls={code}&proj=1&lang={lang}")
    said = step_events(projector.get_data(as_text=True))
    assert said and name in said[0], said
    assert step_events(phone.get(f"/c/{code}?lang={lang}").get_data(as_text=True)) == said
    # every node the projector's tree names is named by its moves, never by a number
    titles = re.findall(r"<title>([^<]*)</title>", projector.get_data(as_text=True))
    named = [t for t in titles if re.match(r"(?:Open )?(?:max|min)\b", t)]
    assert named and all(PATH_NAME.search(t) for t in named), named
