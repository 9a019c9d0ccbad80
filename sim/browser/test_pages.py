"""The pages of `kanaszta replay --html` and `kanaszta report --html` in a
real browser (headless Chromium driven by Selenium): what is drawn is
checked against the text replay and hands.csv, and a screenshot of each
page is saved (docs/img/ by default).

Usage: python sim/browser/test_pages.py [--bin target/testing/kanaszta]
       [--img docs/img]
"""

import argparse
import base64
import csv
import os
import re
import shutil
import subprocess
import sys
import tempfile

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

TMP = tempfile.mkdtemp(prefix="kanaszta-pages-")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run(bin_, *args):
    out = subprocess.run([bin_, *args], capture_output=True, text=True, cwd=TMP)
    if out.returncode != 0:
        raise SystemExit(f"kanaszta {' '.join(args)}: exit {out.returncode}: {out.stderr}")
    return out.stdout


def hands_csv(run_dir, game):
    """hands.csv's rows of game `game` (series 0): [hand][seat] -> row."""
    hands = {}
    with open(os.path.join(TMP, run_dir, "hands.csv"), newline="") as f:
        for r in csv.DictReader(f):
            if r["series"] == "0" and r["game"] == str(game):
                hands.setdefault(int(r["hand"]), {})[int(r["seat"])] = r
    return [hands[h] for h in sorted(hands)]


def first_turn_end(text):
    """The mover and hand size at the first turn's end of the text replay."""
    for line in text.splitlines():
        m = re.search(r"table P(\d+): .*; (\d+) in hand", line)
        if m:
            return int(m.group(1)), int(m.group(2))
        m = re.search(r"side \d+: .*; P(\d+) holds (\d+);", line)
        if m:
            return int(m.group(1)), int(m.group(2))
    raise AssertionError("no turn ends in the text replay")


def browser():
    o = webdriver.ChromeOptions()
    o.binary_location = "/usr/bin/chromium"
    profile = tempfile.mkdtemp(prefix="chromium-", dir=TMP)
    for a in ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
              "--disable-background-networking", "--disable-component-update", "--disable-sync",
              "--window-size=1200,900", f"--user-data-dir={profile}"]:
        o.add_argument(a)
    o.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=o)


def step_text(d):
    return d.find_element(By.ID, "step").text


def pile(d):
    top = d.find_elements(By.CSS_SELECTOR, "#pile-top .card.face")
    return (d.find_element(By.ID, "pile-size").text, top[0].get_attribute("data-card") if top else None)


def press(d, key):
    d.find_element(By.TAG_NAME, "body").send_keys(key)


def hand_cards(d, seat, face=True):
    sel = f'.hand[data-seat="{seat}"] .card' + (".face" if face else ".back")
    return len(d.find_elements(By.CSS_SELECTOR, sel))


def check_replay(d, page, text, rows, seat_view=None):
    """Steps the page: the step counter, the pile, the hand size after the
    first turn, the one-seat view, the final score against hands.csv."""
    d.get("file://" + page)
    total = d.execute_script("return window.kanaszta.steps") - 1
    assert step_text(d) == f"step 0 / {total}", step_text(d)
    before = pile(d)
    press(d, Keys.ARROW_RIGHT)
    assert step_text(d) == f"step 1 / {total}", step_text(d)
    press(d, Keys.ARROW_LEFT)
    assert step_text(d) == f"step 0 / {total}", step_text(d)
    d.find_element(By.ID, "next").click()
    assert step_text(d) == f"step 1 / {total}", step_text(d)
    # Step on to the first discard: the pile changes, the mover holds what
    # the text replay says at that turn's end.
    mover, size = first_turn_end(text)
    k = 1
    while ": discard" not in d.find_element(By.ID, "action").text:
        press(d, Keys.ARROW_RIGHT)
        k += 1
        assert k < 100, "no discard in 100 steps"
    assert step_text(d) == f"step {k} / {total}"
    assert pile(d) != before, (pile(d), before)
    label = d.find_element(By.ID, "action").text
    assert f"P{mover} " in label, (label, mover)
    shown = hand_cards(d, mover) if seat_view in (None, mover) else hand_cards(d, mover, face=False)
    assert shown == size, (shown, size)
    seats = len(rows[-1])
    if seat_view is not None:
        for p in range(seats):
            if p != seat_view:
                assert hand_cards(d, p) == 0, f"seat {p}'s hand is hidden"
                n = int(d.find_element(By.CSS_SELECTOR, f'.hand[data-seat="{p}"]').get_attribute("data-count"))
                assert hand_cards(d, p, face=False) == n
        Select(d.find_element(By.ID, "seat")).select_by_value("all")
        assert all(hand_cards(d, p, face=False) == 0 for p in range(seats))
        Select(d.find_element(By.ID, "seat")).select_by_value(str(seat_view))
    # The last step: the score's totals are hands.csv's.
    press(d, Keys.END)
    assert step_text(d) == f"step {total} / {total}"
    last = rows[-1]
    family = d.execute_script("return window.kanaszta.data.family")
    for p, r in last.items():
        c = int(r["side"]) if family == "classic" else p
        raw = d.find_element(By.CSS_SELECTOR, f'#score tr[data-key="raw"] td[data-col="{c}"]').text
        assert raw == r["raw"], (p, raw, r["raw"])
        after = d.find_elements(By.CSS_SELECTOR, f'#score tr[data-key="total_after"] td[data-col="{c}"]')
        if after:
            assert after[0].text == r["total_after"], (p, after[0].text, r["total_after"])
    press(d, Keys.HOME)
    assert step_text(d) == f"step 0 / {total}"
    return total


def shot(d, path, step=None):
    """A screenshot of the whole page (at step `step` of a replay)."""
    if step is not None:
        d.execute_script(f"window.kanaszta.go({step})")
    h = d.execute_script("return document.documentElement.scrollHeight")
    d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                      {"width": 1200, "height": min(int(h), 3000), "deviceScaleFactor": 1, "mobile": False})
    png = d.execute_cdp_cmd("Page.captureScreenshot", {"format": "png"})["data"]
    d.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    with open(path, "wb") as f:
        f.write(base64.b64decode(png))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.path.join(ROOT, "target", "testing", "kanaszta"))
    ap.add_argument("--img", default=os.path.join(ROOT, "docs", "img"))
    a = ap.parse_args()
    os.makedirs(a.img, exist_ok=True)
    tmp = TMP
    b = os.path.abspath(a.bin)
    # Run directories relative to TMP (the pages name them so).
    dm, c4, full = "runs/dm", "runs/c4", "runs/rules-greedy"
    run(b, "play", "--a", "rules", "--b", "greedy", "--matches", "2", "--set", "target=3000",
        "--threads", "1", "-q", "--out", dm)
    run(b, "play", "--rules", "classic-002", "--set", "players=4", "--a", "rules", "--b", "greedy",
        "--hands", "20", "--threads", "1", "-q", "--out", c4)
    run(b, "play", "--a", "rules", "--b", "greedy", "--matches", "6", "--threads", "1", "-q", "--out", full)
    pages = {name: os.path.join(tmp, name + ".html") for name in
             ["decorated", "decorated-search", "decorated-seat", "classic", "classic2", "report-decorated", "report-classic"]}
    run(b, "replay", "--run", dm, "--game", "0", "--html", pages["decorated"])
    run(b, "replay", "--run", dm, "--game", "0", "--hand", "1", "--html", pages["decorated-seat"], "--seat", "0")
    run(b, "replay", "--a", "ismcts:iters=50,race=64,focus=2", "--b", "rules", "--seed", "1", "--html", pages["decorated-search"])
    run(b, "replay", "--run", c4, "--game", "1", "--html", pages["classic"])
    run(b, "replay", "--rules", "classic-002", "--a", "rules", "--b", "greedy", "--seed", "3",
        "--html", pages["classic2"], "--seat", "1")
    run(b, "report", full, "--html", pages["report-decorated"])
    run(b, "report", c4, "--html", pages["report-classic"])
    d = browser()
    try:
        text = run(b, "replay", "--run", dm, "--game", "0", "--hand", "0")
        check_replay(d, pages["decorated"], text, hands_csv(dm, 0))
        shot(d, os.path.join(a.img, "replay-decorated.png"), 60)
        text = run(b, "replay", "--run", dm, "--game", "0", "--hand", "1")
        check_replay(d, pages["decorated-seat"], text, hands_csv(dm, 0)[1:2], seat_view=0)
        shot(d, os.path.join(a.img, "replay-decorated-seat.png"), -1 + d.execute_script("return window.kanaszta.steps"))
        # Where the search left its policy: a note under the action.
        d.get("file://" + pages["decorated-search"])
        for _ in range(200):
            if d.find_elements(By.CSS_SELECTOR, ".note"):
                break
            press(d, Keys.ARROW_RIGHT)
        notes = d.find_elements(By.CSS_SELECTOR, ".note")
        assert notes and notes[0].text.startswith("search: "), "a departure is noted"
        shot(d, os.path.join(a.img, "replay-search.png"))
        text = run(b, "replay", "--run", c4, "--game", "1")
        check_replay(d, pages["classic"], text, hands_csv(c4, 1))
        shot(d, os.path.join(a.img, "replay-classic.png"), 40)
        d.get("file://" + pages["classic2"])
        assert hand_cards(d, 0) == 0 and hand_cards(d, 1) > 0, "seat 1's view of a two-player game"
        for name in ["report-decorated", "report-classic"]:
            d.get("file://" + pages[name])
            bars = d.find_elements(By.CSS_SELECTOR, '[data-chart="hand_win"] rect.bar')
            errs = d.find_elements(By.CSS_SELECTOR, '[data-chart="hand_win"] line.err')
            with open(os.path.join(tmp, full if name.endswith("decorated") else c4, "summary.csv")) as f:
                sides = list(csv.DictReader(f))
            assert len(bars) == len(sides) and len(errs) == 3 * len(sides), (len(bars), len(errs))
            assert d.find_element(By.CSS_SELECTOR, 'dd[data-key="seed"]').text == "1"
            charts = [e.get_attribute("data-chart") for e in d.find_elements(By.CSS_SELECTOR, "figure.chart")]
            want = ["hand_win", "mean_raw", "ends"] + (["match_win", "match_length", "tax_paid", "tax_hist"]
                                                       if name.endswith("decorated") else [])
            assert sorted(charts) == sorted(want), charts
            shot(d, os.path.join(a.img, name + ".png"))
        errors = [e for e in d.get_log("browser") if e["level"] == "SEVERE"]
        assert not errors, errors
    finally:
        d.quit()
        shutil.rmtree(TMP, ignore_errors=True)
    print(f"browser: {len(pages)} pages drawn and checked; screenshots in {a.img}")


if __name__ == "__main__":
    sys.exit(main())
