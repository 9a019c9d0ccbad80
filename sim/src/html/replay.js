/* Draws a replayed game from the JSON of #data: a step is the deal of a
   hand or the state after one action. */
(function () {
  "use strict";
  var D = JSON.parse(document.getElementById("data").textContent);
  var SUIT = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };
  var flat = [];
  D.hands.forEach(function (h, hi) {
    flat.push({ hand: hi, k: 0, state: h.start, step: null, last: h.steps.length === 0 });
    h.steps.forEach(function (s, i) {
      flat.push({ hand: hi, k: i + 1, state: s.state, step: s, last: i === h.steps.length - 1 });
    });
  });
  var cur = 0;
  var view = D.seat === null || D.seat === undefined ? "all" : String(D.seat);

  function esc(t) {
    return String(t).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  }
  function card(c) {
    if (c === "JK") {
      return '<div class="card face joker" data-card="JK"><span>JO</span><span>KER</span></div>';
    }
    var r = c[0], s = c[1];
    var red = s === "H" || s === "D";
    var cls = "card face " + (red ? "red" : "black");
    if (r === "2") cls += " wild";
    if (r === "3") cls += red ? " red3" : " black3";
    var rank = r === "T" ? "10" : r;
    return '<div class="' + cls + '" data-card="' + c + '" title="' + c + '"><span class="r">' +
      rank + '</span><span class="s">' + SUIT[s] + "</span></div>";
  }
  function back() {
    return '<div class="card back"></div>';
  }
  function cards(list) {
    return list.map(card).join("");
  }
  function tableHtml(t) {
    var out = "";
    t.melds.forEach(function (m) {
      out += '<div class="meld' + (m.canasta ? " canasta " + (m.kind || "") : "") + '"' +
        (m.canasta ? ' title="canasta: ' + esc(m.kind || "") + '"' : "") + ">" + cards(m.cards) + "</div>";
    });
    if (!t.melds.length) out += '<span class="muted">no melds</span>';
    if (t.red_threes.length) {
      out += '<div class="threes" title="red threes">' + cards(t.red_threes) + "</div>";
    }
    if (t.extras.length) out += ' <span class="muted">' + esc(t.extras.join(", ")) + "</span>";
    return out;
  }
  function scoreHtml(end) {
    var h = '<h2>End of the hand</h2><div id="end-text">' + esc(end.text) + "</div>";
    if (!end.rows) return h;
    h += '<table class="score" id="score"><tr><th>' +
      (D.family === "classic" ? "score (C-23)" : "score (D-14)") + "</th>" +
      end.columns.map(function (c) { return "<th>" + esc(c) + "</th>"; }).join("") + "</tr>";
    function rows(list, cls) {
      list.forEach(function (r) {
        var sum = r.name.indexOf("=") === 0 ? " sum" : "";
        h += '<tr class="' + cls + sum + '" data-key="' + r.key + '"><td>' + esc(r.name) + "</td>" +
          r.values.map(function (v, i) { return '<td data-col="' + i + '">' + v + "</td>"; }).join("") + "</tr>";
      });
    }
    rows(end.rows, "item");
    if (end.tax_rows && end.tax_rows.length) {
      h += '<tr><th colspan="' + (end.columns.length + 1) + '">' +
        (D.family === "classic" ? "running totals" : "tax (D-15)") + "</th></tr>";
      rows(end.tax_rows, "tax");
    }
    return h + "</table>";
  }
  function render() {
    var f = flat[cur];
    var h = D.hands[f.hand];
    var st = f.state;
    var app = document.getElementById("app");
    var html = "<h1>" + esc(D.title) + "</h1>";
    html += '<div class="muted">' + esc(h.intro) + (D.hands.length > 1 ? " \u00b7 hand " + f.hand +
      " of " + D.hands.length + ", totals before " + h.totals_before.join(" / ") : "") + "</div>";
    html += '<div class="controls"><button id="first" title="Home">\u00ab</button>' +
      '<button id="prev" title="\u2190">\u25c0</button><span id="step">step ' + cur + " / " +
      (flat.length - 1) + '</span><button id="next" title="\u2192">\u25b6</button>' +
      '<button id="last" title="End">\u00bb</button> <label>view <select id="seat"><option value="all">every hand</option>' +
      D.seats.map(function (s, i) {
        return '<option value="' + i + '"' + (view === String(i) ? " selected" : "") + ">" + esc(s) + " only</option>";
      }).join("") + "</select></label></div>";
    var act = f.step ? "turn " + f.step.turn + " \u00b7 " + D.seats[f.step.seat] + ": " + f.step.action : "the deal";
    html += '<div id="action">' + esc(act) + "</div>";
    if (f.step) {
      f.step.notes.forEach(function (n) { html += '<div class="note">' + esc(n) + "</div>"; });
    }
    html += '<div class="felt">';
    html += '<div class="pile" id="pile-box"><span>pile</span><span id="pile-top">' +
      (st.pile.top ? card(st.pile.top) : '<div class="card back" style="opacity:.3"></div>') +
      '</span><span id="pile-size">' + st.pile.size + " card" + (st.pile.size === 1 ? "" : "s") + "</span>" +
      (st.pile.frozen ? '<span class="frozen" id="pile-frozen">frozen</span>' : "") +
      "<span>stock " + st.stock + "</span></div>";
    html += '<div class="row">';
    D.seats.forEach(function (s, p) {
      var list = st.hands[p];
      var shown = view === "all" || view === String(p);
      html += '<div class="seat' + (st.to_move === p ? " mover" : "") + '"><div class="label">' + esc(s) +
        " \u00b7 " + list.length + " card" + (list.length === 1 ? "" : "s") + (st.to_move === p ? " \u00b7 to move" : "") +
        '</div><div class="hand" data-seat="' + p + '" data-count="' + list.length + '">' +
        (shown ? cards(list) : list.map(back).join("")) + "</div></div>";
    });
    html += "</div><h2>Tables</h2>";
    D.table_labels.forEach(function (l, i) {
      html += '<div class="tbl" data-table="' + i + '"><div class="label">' + esc(l) + "</div>" +
        tableHtml(st.tables[i]) + "</div>";
    });
    html += "</div>";
    if (f.last && h.end) html += scoreHtml(h.end);
    html += '<p class="muted">keys: \u2190 \u2192 step, Home End first and last; ' + esc(D.policy) + "</p>";
    app.innerHTML = html;
    document.getElementById("first").onclick = function () { go(0); };
    document.getElementById("prev").onclick = function () { go(cur - 1); };
    document.getElementById("next").onclick = function () { go(cur + 1); };
    document.getElementById("last").onclick = function () { go(flat.length - 1); };
    document.getElementById("seat").onchange = function (e) { view = e.target.value; render(); };
  }
  function go(k) {
    cur = Math.max(0, Math.min(flat.length - 1, k));
    render();
  }
  document.addEventListener("keydown", function (e) {
    if (e.target && e.target.tagName === "SELECT") return;
    if (e.key === "ArrowRight") go(cur + 1);
    else if (e.key === "ArrowLeft") go(cur - 1);
    else if (e.key === "Home") go(0);
    else if (e.key === "End") go(flat.length - 1);
    else return;
    e.preventDefault();
  });
  window.kanaszta = { go: go, steps: flat.length, data: D };
  render();
})();
