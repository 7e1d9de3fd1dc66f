"""web.fragments: the settings form, drawn once per worker and kept, is still the form of the
page's own settings, in the page's own language, with the page's own error beside its field,
whatever pages the worker drew before."""
import re

HX = {"HX-Request": "true"}


def selected(html, name):
    field = re.search(rf'<select name="{name}"[^>]*>(.*?)</select>', html, re.S).group(1)
    return re.findall(r'<option value="([^"]*)" selected>', field)


def test_each_settings_and_language_draws_its_own_form(client):
    pages = [("/connect4?moves=44&level=easy", "easy", "Who plays", "Apply"),
             ("/connect4?moves=4453&level=hard", "hard", "Who plays", "Apply"),
             ("/connect4?moves=44&level=easy&lang=fr", "easy", "Qui joue", "Appliquer"),
             ("/connect4?moves=445&level=medium&mode=ai-human", "medium", "Who plays", "Apply")]
    for _ in range(2):                  # the second time, from what the worker kept
        for url, level, label, button in pages:
            html = client.get(url, headers=HX).get_data(as_text=True)
            assert selected(html, "level") == [level], url
            assert f"<label>{label}" in html and f'<button type="submit">{button}</button>' \
                in html, url
    html = client.get("/connect4?moves=445&level=medium&mode=ai-human").get_data(as_text=True)
    assert selected(html, "mode") == ["ai-human"]
    html = client.get("/connect4?moves=4453&level=custom&algo=alphabeta&depth=3").get_data(
        as_text=True)
    assert selected(html, "algo") == ["alphabeta"]
    assert re.search(r'<input type="number" name="depth"[^>]*value="3"', html)


def test_an_error_is_drawn_beside_its_field_after_the_same_settings_were_kept(client):
    url = "/connect4?moves=44&level=custom&algo=minimax"     # the settings the 400 keeps
    assert 'id="error-depth"' not in client.get(url).get_data(as_text=True)
    r = client.get("/connect4?moves=44&level=custom&algo=minimax&depth=10")
    html = r.get_data(as_text=True)
    assert r.status_code == 400
    assert re.search(r'<p class="field-error" id="error-depth"[^>]*>Depth: at most 8', html)
    assert 'id="error-depth"' not in client.get(url).get_data(as_text=True)


def legend(html):
    return re.sub(r"<[^>]+>", "", re.search(r'<p class="legend">(.*?)</p>', html, re.S).group(1)
                  ).split()


def test_each_settings_and_language_draws_its_own_legend(client):
    pages = [("/connect4?moves=44", ["You", "(Yellow)", "AI", "(Red)"]),
             ("/connect4?moves=44&lang=fr", ["Vous", "(Jaune)", "IA", "(Rouge)"]),
             ("/connect4?moves=4453&mode=ai-human", ["AI", "(Yellow)", "You", "(Red)"]),
             ("/connect4?moves=44&mode=human-human&players=numbers",
              ["Player", "1", "Player", "2"])]
    for _ in range(2):                  # the second time, from what the worker kept
        for url, words in pages:
            assert legend(client.get(url, headers=HX).get_data(as_text=True)) == words, url


def test_a_rule_field_s_error_is_drawn_beside_it_after_the_same_fields_were_kept(client):
    field = r'<input type="number" name="w"[^>]*>'
    url = "/connect4?moves=44"          # the settings the 400 keeps (the usual 7 columns)
    html = client.get(url).get_data(as_text=True)
    assert 'id="error-w"' not in html and "aria-invalid" not in re.search(field, html).group(0)
    r = client.get("/connect4?moves=44&w=99")
    html = r.get_data(as_text=True)
    assert r.status_code == 400
    assert re.search(r'<p class="field-error" id="error-w"[^>]*>Columns: from 4 to 9', html)
    assert 'aria-describedby="error-w"' in re.search(field, html).group(0)
    html = client.get(url).get_data(as_text=True)
    assert 'id="error-w"' not in html and "aria-invalid" not in re.search(field, html).group(0)
