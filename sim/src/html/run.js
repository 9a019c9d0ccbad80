/* Draws a run's summary from the JSON of #data: intervals as bars with
   error bars, histograms as bars. */
(function () {
  "use strict";
  var D = JSON.parse(document.getElementById("data").textContent);
  function esc(t) {
    return String(t).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  }
  function fmt(x) {
    if (x === null || x === undefined) return "";
    return Math.abs(x) < 1 && x !== 0 ? x.toFixed(3) : (Math.round(x * 10) / 10).toString();
  }
  function label(s) {
    var l = s.agent + " v " + s.opponent;
    if (D.sides.some(function (x) { return x.series !== D.sides[0].series; })) {
      l = "s" + s.series + (s.settings ? " " + s.settings : "") + ": " + l;
    }
    return l;
  }
  /* Horizontal bars with their intervals: items [{label, v, lo, hi, b}]. */
  function intervals(id, title, items, lo0, hi0, mid) {
    var w = 640, lw = 230, rh = 22, h = items.length * rh + 30;
    var lo = lo0, hi = hi0;
    items.forEach(function (it) {
      lo = Math.min(lo, it.lo === null ? it.v : it.lo, it.v);
      hi = Math.max(hi, it.hi === null ? it.v : it.hi, it.v);
    });
    if (hi === lo) hi = lo + 1;
    var x = function (v) { return lw + (v - lo) / (hi - lo) * (w - lw - 60); };
    var s = '<figure class="chart" data-chart="' + id + '"><figcaption>' + esc(title) + '</figcaption><svg width="' +
      w + '" height="' + h + '" role="img">';
    items.forEach(function (it, i) {
      var y = i * rh + 4;
      var x0 = x(Math.max(lo, Math.min(0, hi))), x1 = x(it.v);
      s += '<text x="4" y="' + (y + 14) + '">' + esc(it.label) + "</text>";
      s += '<rect class="bar' + (it.b ? " b" : "") + '" x="' + Math.min(x0, x1) + '" y="' + (y + 3) + '" width="' +
        Math.max(1, Math.abs(x1 - x0)) + '" height="' + (rh - 8) + '"><title>' + esc(it.label + ": " + fmt(it.v) +
        (it.lo !== null ? " [" + fmt(it.lo) + ", " + fmt(it.hi) + "]" : "")) + "</title></rect>";
      if (it.lo !== null && it.hi !== null) {
        var ym = y + 3 + (rh - 8) / 2;
        s += '<line class="err" x1="' + x(it.lo) + '" x2="' + x(it.hi) + '" y1="' + ym + '" y2="' + ym + '"/>';
        s += '<line class="err" x1="' + x(it.lo) + '" x2="' + x(it.lo) + '" y1="' + (ym - 5) + '" y2="' + (ym + 5) + '"/>';
        s += '<line class="err" x1="' + x(it.hi) + '" x2="' + x(it.hi) + '" y1="' + (ym - 5) + '" y2="' + (ym + 5) + '"/>';
      }
      s += '<text x="' + (Math.max(x(it.v), it.hi !== null ? x(it.hi) : 0) + 6) + '" y="' + (y + 14) + '">' + fmt(it.v) + "</text>";
    });
    var ya = items.length * rh + 8;
    s += '<line class="axis" x1="' + lw + '" x2="' + (w - 60) + '" y1="' + ya + '" y2="' + ya + '"/>';
    s += '<text x="' + lw + '" y="' + (ya + 14) + '">' + fmt(lo) + '</text><text x="' + (w - 90) + '" y="' + (ya + 14) +
      '">' + fmt(hi) + "</text>";
    if (mid !== undefined && mid > lo && mid < hi) {
      s += '<line class="mid" x1="' + x(mid) + '" x2="' + x(mid) + '" y1="0" y2="' + ya + '"/>';
    }
    return s + "</svg></figure>";
  }
  /* Vertical bars: items [[label, count]]. */
  function histogram(id, title, items, xname) {
    var w = 640, h = 200, pad = 30;
    var max = Math.max.apply(null, items.map(function (it) { return it[1]; }).concat([1]));
    var bw = Math.min(60, (w - 2 * pad) / Math.max(1, items.length));
    var s = '<figure class="chart" data-chart="' + id + '"><figcaption>' + esc(title) + '</figcaption><svg width="' +
      w + '" height="' + (h + 30) + '" role="img">';
    items.forEach(function (it, i) {
      var bh = it[1] / max * (h - 20);
      var x = pad + i * bw;
      s += '<rect class="bar" x="' + (x + 1) + '" y="' + (h - bh) + '" width="' + Math.max(1, bw - 2) + '" height="' + bh +
        '"><title>' + esc(xname + " " + it[0] + ": " + it[1]) + "</title></rect>";
      if (items.length <= 24 || i % Math.ceil(items.length / 24) === 0) {
        s += '<text x="' + (x + 2) + '" y="' + (h + 14) + '">' + esc(it[0]) + "</text>";
      }
      s += '<text x="' + (x + 2) + '" y="' + (h - bh - 3) + '">' + it[1] + "</text>";
    });
    s += '<line class="axis" x1="' + pad + '" x2="' + (w - pad) + '" y1="' + h + '" y2="' + h + '"/>';
    s += '<text x="' + (w / 2 - 30) + '" y="' + (h + 28) + '">' + esc(xname) + "</text>";
    return s + "</svg></figure>";
  }
  function pick(key) {
    return D.sides.filter(function (s) { return s[key]; }).map(function (s) {
      return { label: label(s), v: s[key].v, lo: s[key].lo, hi: s[key].hi, b: s.side === "b" };
    });
  }
  var r = D.run;
  var html = "<h1>Run " + esc(D.dir) + "</h1>";
  html += '<dl class="run" id="run">';
  function dd(k, v) {
    if (v === undefined || v === null || v === "") return;
    html += "<dt>" + esc(k) + '</dt><dd data-key="' + esc(k) + '">' + esc(typeof v === "object" ? JSON.stringify(v) : v) + "</dd>";
  }
  dd("family", D.family);
  dd("command", r.command);
  dd("seed", r.seed);
  dd("mode", r.mode);
  dd("games", r.games_done !== undefined && r.games_done !== null ? r.games_done + " of " + r.games : r.games);
  dd("paired", r.paired);
  dd("shard", r.shard);
  dd("agents", (r.agents || []).join(", "));
  (r.series || []).forEach(function (s, i) {
    dd("series " + i, s.a + " v " + s.b + (s.settings ? " \u00b7 " + s.settings : ""));
  });
  dd("complete", r.complete);
  dd("version", r.version);
  dd("commit", r.commit);
  html += "</dl>";
  html += "<h2>Summary</h2>";
  html += intervals("hand_win", "hands won (share, 95% interval)", pick("hand_win"), 0, 1, 0.5);
  if (pick("match_win").length) {
    html += intervals("match_win", "matches won (share, 95% interval)", pick("match_win"), 0, 1, 0.5);
  }
  html += intervals("mean_raw", "points a hand (mean raw score, 95% interval)", pick("mean_raw"), 0, 0);
  var all = (r.series || []).length > 1 ? ", all series together" : "";
  var ends = Object.keys(D.ends).map(function (k) { return [k, D.ends[k]]; });
  if (ends.length) html += histogram("ends", "how the hands ended (hands" + all + ")", ends, "end");
  if (D.matches) {
    html += "<h2>Matches</h2>";
    html += histogram("match_length", "match length (matches" + all + ")", D.match_lengths, "hands in the match");
    if (pick("tax_paid").length) {
      html += intervals("tax_paid", "tax paid a match (mean, 95% interval; D-15)", pick("tax_paid"), 0, 0);
    }
    if (D.tax_paid.length) {
      var max = Math.max.apply(null, D.tax_paid), bins = 10, width = Math.max(1, Math.ceil((max + 1) / bins / 100) * 100);
      var counts = [];
      for (var i = 0; i * width <= max; i++) counts.push([String(i * width), 0]);
      D.tax_paid.forEach(function (t) { counts[Math.min(counts.length - 1, Math.floor(Math.max(0, t) / width))][1]++; });
      html += histogram("tax_hist", "tax paid by a seat in a match (seats, bins of " + width + all + ")", counts, "tax paid from");
    }
  } else {
    html += '<p class="muted">The run played single hands: no match lengths, no tax.</p>';
  }
  document.getElementById("app").innerHTML = html;
})();
