// The result page's re-run: fetch the published result and the rules' tables, check each
// sheet's SHA-256, score the published input again with exact decimal arithmetic (BigInt, every
// factor in ten-thousandths) and compare every figure with the published one.
"use strict";

(function () {
  var SCALE = 10000n;

  function dec(text) {            // "1.25" -> 12500n (ten-thousandths)
    var negative = text.charAt(0) === "-";
    var parts = (negative ? text.slice(1) : text).split(".");
    var frac = ((parts[1] || "") + "0000").slice(0, 4);
    var value = BigInt(parts[0]) * SCALE + BigInt(frac);
    return negative ? -value : value;
  }

  function roundDiv(n, d) {       // n / d rounded half away from zero (ROUND_HALF_UP), d > 0
    var q = (2n * (n < 0n ? -n : n) + d) / (2n * d);
    return n < 0n ? -q : q;
  }

  function shown(value, scale) {  // value / scale as a 2-decimal string, half-up
    var cents = roundDiv(value * 100n, scale);
    var sign = cents < 0n ? "-" : "";
    var a = cents < 0n ? -cents : cents;
    var frac = String(a % 100n);
    return sign + String(a / 100n) + "." + (frac.length < 2 ? "0" + frac : frac);
  }

  function derivedNumbers(ours, theirs, t) {
    if (ours >= t.outnumber * theirs) { return "heavily-outnumbering"; }
    if (theirs >= t.outnumber * ours) { return "heavily-outnumbered"; }
    return null;
  }

  function nwsStanding(ours, theirs, t) {
    if (ours > t.nws_dominance * theirs) { return "more-than-double"; }
    if (t.nws_dominance * ours < theirs) { return "less-than-half"; }
    if (Math.abs(ours - theirs) <= t.nws_near) { return "within-10"; }
    return ours > theirs ? "greater" : "less";
  }

  function army(a, enemy, attacking, kind, t) {
    var s = a.support, m = a.morale || {}, tech = a.technology;
    var troops = BigInt(Math.floor((a.troops + t.troops_per_point / 200) /
                                   (t.troops_per_point / 100)));   // hundredths, half-up
    var support = SCALE;
    (s.special_units || []).forEach(function (u) { support += dec(t.special_units[u]); });
    support += dec(t.races[s.race]);
    if (s.ballista) { support += dec(t.ballista[s.ballista]); }
    if (s.cavalry) {
      var cav = dec(t.cavalry[s.cavalry]);
      support += enemy.pikes ? cav * dec(t.pikes_cavalry) / SCALE : cav;
    }
    if (kind === "naval" && s.ships) { support += dec(t.ships[s.ships]); }
    var morale = SCALE;
    var standing = m.nws || null;
    if (a.nws_score !== null && a.nws_score !== undefined &&
        enemy.nws_score !== null && enemy.nws_score !== undefined) {
      standing = nwsStanding(a.nws_score, enemy.nws_score, t);
    }
    if (standing) { morale += dec(t.nws_standing[standing]); }
    var numbers = derivedNumbers(a.troops, enemy.troops, t);
    if (numbers) { morale += dec(t.numbers[numbers]); }
    if (m.previous) { morale += dec(t.previous[m.previous]); }
    if (m.positioning) { morale += dec(t.positioning[m.positioning]); }
    (m.specials || []).forEach(function (x) { morale += dec(t.morale_specials[x]); });
    var works = attacking ? null : (a.defensives ? dec(t.defensives[a.defensives]) : SCALE);
    var technology = SCALE + dec(t.armor[tech.armor]) + dec(t.weapons[tech.weapons]);
    if (tech.mithril) { technology += dec(t.mithril); }
    if (tech.scant) { technology += dec(t.scant); }
    var product = troops * support * morale * (works === null ? SCALE : works) * technology;
    var productScale = 100n * SCALE * SCALE * SCALE * SCALE;
    return {
      troops: shown(troops, 100n), support: shown(support, SCALE), morale: shown(morale, SCALE),
      defensives: works === null ? null : shown(works, SCALE),
      technology: shown(technology, SCALE),
      total: morale < 0n ? null : shown(product, productScale),
      exact: morale < 0n ? null : product
    };
  }

  function battle(input, t) {
    var att = army(input.attacker, input.defender, true, input.kind, t);
    var def = army(input.defender, input.attacker, false, input.kind, t);
    var out = { attacker: att, defender: def, percent: null, tier: null, winner: "none" };
    if (att.exact === null || def.exact === null) {
      if (att.exact === null && def.exact !== null) { out.winner = "defender"; }
      if (def.exact === null && att.exact !== null) { out.winner = "attacker"; }
      return out;
    }
    if (att.exact === def.exact) { out.tier = "stalemate"; out.percent = 100; return out; }
    out.winner = att.exact > def.exact ? "attacker" : "defender";
    var larger = att.exact > def.exact ? att.exact : def.exact;
    var smaller = att.exact > def.exact ? def.exact : att.exact;
    if (smaller > 0n) { out.percent = Number(roundDiv(larger * 100n, smaller)); }
    out.tier = "marginal";
    t.tiers.forEach(function (row) {
      if (larger * SCALE >= dec(row[1]) * smaller) { out.tier = row[0]; }
    });
    return out;
  }

  function frontsScore(fronts, t) {
    if (t.fronts[String(fronts)] !== undefined) { return t.fronts[String(fronts)]; }
    var last = Math.max.apply(null, Object.keys(t.fronts).map(Number));
    return t.fronts[String(last)] + t.further_front * (fronts - last);
  }

  function year(input, t) {
    var totals = {};
    Object.keys(input).forEach(function (nation) {
      var n = input[nation], total = frontsScore(n.fronts, t);
      Object.keys(t.nws).forEach(function (cat) { total += Number(t.nws[cat][n[cat]]); });
      totals[nation] = total;
    });
    return totals;
  }

  async function sha256(text) {
    var bytes = new TextEncoder().encode(text);
    var hash = await crypto.subtle.digest("SHA-256", bytes);
    return Array.from(new Uint8Array(hash)).map(function (b) {
      return b.toString(16).padStart(2, "0");
    }).join("");
  }

  function check(name, ok, detail) {
    var item = document.createElement("li");
    item.className = ok ? "rerun-ok" : "rerun-fail";
    item.textContent = (ok ? "✓ " : "✗ ") + name + ": " + detail;
    list.appendChild(item);
    return ok;
  }

  function compareBattle(mine, published) {
    var ok = true;
    ["attacker", "defender"].forEach(function (side) {
      ["troops", "support", "morale", "defensives", "technology", "total"].forEach(function (f) {
        var same = mine[side][f] === published[side][f];
        ok = check(side + " " + f, same, String(mine[side][f]) +
                   (same ? "" : " (published " + published[side][f] + ")")) && ok;
      });
    });
    ["percent", "tier", "winner"].forEach(function (f) {
      var same = mine[f] === published[f];
      ok = check(f, same, String(mine[f]) + (same ? "" : " (published " + published[f] + ")")) && ok;
    });
    return ok;
  }

  async function rerun() {
    list.textContent = "";
    verdict.textContent = "Re-running…";
    var digest = section.dataset.digest;
    var answers = await Promise.all([fetch("/api/warscore/r/" + digest),
                                     fetch("/api/warscore/tables")]);
    var published = await answers[0].json(), t = await answers[1].json();
    var doc = published.document, ok = true;
    for (var key of Object.keys(doc.sheets)) {
      var sheet = doc.sheets[key];
      if (window.crypto && crypto.subtle) {
        var found = await sha256(sheet.text);
        ok = check("sheet " + sheet.nation, found === sheet.sha256, found) && ok;
      }
    }
    if (doc.kind === "battle") {
      ok = compareBattle(battle(doc.input, t), doc.result) && ok;
    } else {
      var totals = year(doc.input, t);
      doc.result.nws.forEach(function (entry) {
        var same = totals[entry.nation] === entry.total;
        ok = check(entry.nation + " NWS", same, String(totals[entry.nation])) && ok;
      });
    }
    verdict.textContent = ok ? "Re-run matches: every figure follows from the published sheets."
                             : "Re-run differs from the published figures.";
    verdict.className = ok ? "rerun-match" : "rerun-differs";
  }

  // The scoring alone, for tests that compare it with the engine on many battles.
  window.fairfightRerun = { battle: battle, year: year };
  var section = document.getElementById("rerun");
  var button = document.getElementById("rerun-button");
  var verdict = document.getElementById("rerun-verdict");
  var list = document.getElementById("rerun-checks");
  if (!section || !button) { return; }
  button.hidden = false;
  verdict.textContent = "";
  button.addEventListener("click", function () {
    rerun().catch(function (error) { verdict.textContent = "Re-run failed: " + error; });
  });
}());
