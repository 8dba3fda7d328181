// Cottage Garden on the replay page: draws one picture (cgsim/games/cottage/picture.py).
(function () {
  "use strict";
  const FLOWERS = ["#e46f94", "#f0a830", "#9a6ad0", "#e2553f", "#48b3a8", "#5a8fe3",
    "#e8c43c", "#b84a8a", "#9cc25a", "#ff9360", "#f5a3c7", "#7d5fc0"];
  const esc = (text) => String(text).replace(/[&<>"]/g,
    (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"})[c]);

  const style = document.createElement("style");
  style.textContent = `
    .cg-top { display: flex; gap: 18px; flex-wrap: wrap; align-items: flex-start; margin-bottom: 16px; }
    .cg-box { background: #fffdf8; border: 1px solid #e6dccb; border-radius: 10px; padding: 10px 12px;
      box-shadow: 0 1px 2px rgba(60,40,10,.06); }
    .cg-box h3 { margin: 0 0 6px; font: 600 13px Georgia, "DejaVu Serif", serif; color: #7a6f62;
      text-transform: uppercase; letter-spacing: .8px; }
    .cg-facts { display: grid; grid-template-columns: auto auto; gap: 2px 12px; font-size: 13px; }
    .cg-facts b { font-weight: 600; }
    .cg-path { display: flex; flex-wrap: wrap; gap: 4px; max-width: 330px; }
    .cg-chip { font: 600 11px/1 monospace; padding: 4px 5px; border-radius: 4px; background: #efe6d4;
      color: #5b4a33; }
    .cg-players { display: grid; grid-template-columns: repeat(auto-fill, minmax(400px, 1fr)); gap: 14px; }
    .cg-player { border-top: 5px solid var(--c); }
    .cg-player.cg-turn { box-shadow: 0 0 0 3px rgba(79,125,58,.35), 0 2px 6px rgba(60,40,10,.15); }
    .cg-head { display: flex; align-items: baseline; gap: 10px; margin-bottom: 6px; }
    .cg-head .cg-name { font: 600 16px Georgia, "DejaVu Serif", serif; }
    .cg-head .cg-score { margin-left: auto; font: 700 26px Georgia, "DejaVu Serif", serif; color: var(--c); }
    .cg-head .cg-score small { font: 12px sans-serif; color: #7a6f62; margin-left: 3px; }
    .cg-beds { display: flex; gap: 14px; }
    .cg-bed figcaption { font-size: 12px; color: #7a6f62; text-align: center; }
    .cg-bed { margin: 0; }
    .cg-meta { font-size: 12px; color: #7a6f62; margin: 4px 0 8px; }
    .cg-tracks { margin-top: 6px; }
  `;
  document.head.appendChild(style);

  // Small pictures of the garden's pieces, each in a square of side s at (x, y).
  function pot(x, y, s, token) {
    let out = "";
    if (token) {
      out += `<circle cx="${x + s / 2}" cy="${y + s / 2}" r="${s * 0.44}" fill="#f6e7c8" stroke="#b9874f" stroke-width="1.5"/>`;
    }
    out += `<path d="M${x + s * 0.28} ${y + s * 0.42} L${x + s * 0.72} ${y + s * 0.42} L${x + s * 0.65} ${y + s * 0.82} L${x + s * 0.35} ${y + s * 0.82} Z" fill="#c8643b" stroke="#8e3f20" stroke-width="1"/>`;
    out += `<rect x="${x + s * 0.22}" y="${y + s * 0.32}" width="${s * 0.56}" height="${s * 0.12}" rx="1.5" fill="#d9774c" stroke="#8e3f20" stroke-width="1"/>`;
    out += `<path d="M${x + s * 0.5} ${y + s * 0.32} q${-s * 0.12} ${-s * 0.16} ${-s * 0.2} ${-s * 0.14} M${x + s * 0.5} ${y + s * 0.32} q${s * 0.1} ${-s * 0.18} ${s * 0.2} ${-s * 0.16}" stroke="#3f7a2f" stroke-width="1.6" fill="none"/>`;
    return out;
  }
  function cloche(x, y, s) {
    return `<path d="M${x + s * 0.18} ${y + s * 0.8} A${s * 0.32} ${s * 0.36} 0 0 1 ${x + s * 0.82} ${y + s * 0.8} Z" fill="rgba(205,232,250,.85)" stroke="#5f8fb0" stroke-width="1.3"/>` +
      `<circle cx="${x + s / 2}" cy="${y + s * 0.4}" r="${s * 0.06}" fill="#5f8fb0"/>` +
      `<path d="M${x + s * 0.32} ${y + s * 0.66} q${s * 0.04} ${-s * 0.16} ${s * 0.14} ${-s * 0.2}" stroke="#fff" stroke-width="1.5" fill="none"/>`;
  }
  function cat(x, y, s) {
    const cx = x + s / 2, cy = y + s * 0.56, r = s * 0.26;
    return `<circle cx="${cx}" cy="${y + s / 2}" r="${s * 0.44}" fill="#f3ead9" stroke="#6b5a4a" stroke-width="1"/>` +
      `<path d="M${cx - r} ${cy - r * 0.2} L${cx - r * 0.85} ${cy - r * 1.35} L${cx - r * 0.25} ${cy - r * 0.85} Z M${cx + r} ${cy - r * 0.2} L${cx + r * 0.85} ${cy - r * 1.35} L${cx + r * 0.25} ${cy - r * 0.85} Z" fill="#3b3632"/>` +
      `<circle cx="${cx}" cy="${cy}" r="${r}" fill="#3b3632"/>` +
      `<circle cx="${cx - r * 0.4}" cy="${cy - r * 0.1}" r="${r * 0.18}" fill="#e8d25a"/>` +
      `<circle cx="${cx + r * 0.4}" cy="${cy - r * 0.1}" r="${r * 0.18}" fill="#e8d25a"/>`;
  }
  function flower(x, y, s, color) {
    const cx = x + s / 2, cy = y + s / 2, d = s * 0.17, r = s * 0.13;
    let out = `<rect x="${x}" y="${y}" width="${s}" height="${s}" fill="${color}" opacity=".92"/>`;
    for (let k = 0; k < 5; k++) {
      const a = (Math.PI * 2 * k) / 5 - Math.PI / 2;
      out += `<circle cx="${cx + d * Math.cos(a)}" cy="${cy + d * Math.sin(a)}" r="${r}" fill="#fff" opacity=".55"/>`;
    }
    return out + `<circle cx="${cx}" cy="${cy}" r="${s * 0.09}" fill="#ffe27a"/>`;
  }

  function bed(seat, b, data) {
    const s = 30, gap = 2, size = 5 * s + 6 * gap;
    if (!data) {
      return `<figure class="cg-bed"><svg width="${size}" height="${size}"><rect x="1" y="1" width="${size - 2}" height="${size - 2}" rx="8" fill="none" stroke="#d8ccb6" stroke-dasharray="5 4"/><text x="${size / 2}" y="${size / 2 + 4}" text-anchor="middle" font-size="12" fill="#a99b85">no bed</text></svg><figcaption>bed ${b}</figcaption></figure>`;
    }
    const dark = data.side === "dark";
    let svg = `<svg width="${size}" height="${size}" data-bed="${seat}-${b}"><rect width="${size}" height="${size}" rx="8" fill="${dark ? "#6f5238" : "#c9a878"}"/>`;
    const at = (i) => [gap + (i % 5) * (s + gap), gap + Math.floor(i / 5) * (s + gap)];
    data.cells.forEach((cell, i) => {
      const [what, order] = cell;
      const [x, y] = at(i);
      let inner = `<rect x="${x}" y="${y}" width="${s}" height="${s}" rx="3" fill="${dark ? "#8a6a4b" : "#dcc093"}"/>`;
      if (what.startsWith("tile")) {
        inner = flower(x, y, s, FLOWERS[order % FLOWERS.length]);
        if (what === "tile-pot") inner += pot(x, y, s, false);
        if (what === "tile-cloche") inner += cloche(x, y, s);
      } else if (what === "pot") inner += pot(x, y, s, false);
      else if (what === "cloche") inner += cloche(x, y, s);
      else if (what === "token") inner += pot(x, y, s, true);
      else if (what === "cat") inner += cat(x, y, s);
      svg += `<g data-cell="${seat}-${b}-${Math.floor(i / 5)}-${i % 5}" data-what="${what}" data-tile="${order}">${inner}</g>`;
    });
    // A dark edge where one tile meets another or the soil: each tile reads as one piece.
    data.cells.forEach((cell, i) => {
      const order = cell[1];
      if (order < 0) return;
      const [x, y] = at(i), r = Math.floor(i / 5), c = i % 5;
      const other = (rr, cc) => (rr < 0 || rr > 4 || cc < 0 || cc > 4) ? -1 : data.cells[rr * 5 + cc][1];
      const h = gap / 2;
      const edges = [[r - 1, c, x - h, y - h, x + s + h, y - h], [r + 1, c, x - h, y + s + h, x + s + h, y + s + h],
        [r, c - 1, x - h, y - h, x - h, y + s + h], [r, c + 1, x + s + h, y - h, x + s + h, y + s + h]];
      for (const [rr, cc, x1, y1, x2, y2] of edges) {
        if (other(rr, cc) !== order) svg += `<line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}" stroke="#3a2a1c" stroke-width="2.2" stroke-linecap="round"/>`;
        else svg += `<line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}" stroke="${FLOWERS[order % FLOWERS.length]}" stroke-width="${gap + 0.5}"/>`;
      }
    });
    svg += "</svg>";
    const caption = `bed ${b} \u00b7 board ${esc(data.board)} ${data.side} \u00b7 ${data.pots} pots, ${data.cloches} cloches`;
    return `<figure class="cg-bed">${svg}<figcaption>${caption}</figcaption></figure>`;
  }

  function track(name, values, cubes, color, redLine) {
    const w = 15, h = 16;
    const width = values.length * w + 4;
    let svg = `<svg width="${width}" height="${h + 14}" data-track="${name}">`;
    values.forEach((v, i) => {
      const x = 2 + i * w;
      const count = cubes.filter((p) => p === i).length;
      const last = i === values.length - 1;
      svg += `<rect x="${x}" y="2" width="${w - 2}" height="${h}" rx="3" fill="${count ? color : "#f4ecdc"}" stroke="${last ? "#8e7a5c" : "#d8ccb6"}"/>`;
      if (count) svg += `<text x="${x + (w - 2) / 2}" y="${h - 2}" font-size="10" font-weight="700" text-anchor="middle" fill="#fff">${count}</text>`;
      if (i % 2 === 0 || last) svg += `<text x="${x + (w - 2) / 2}" y="${h + 13}" font-size="8.5" text-anchor="middle" fill="#7a6f62">${v}</text>`;
      if (v === redLine && i > 0) svg += `<line x1="${x - 1}" y1="0" x2="${x - 1}" y2="${h + 4}" stroke="#c0392b" stroke-width="2"/>`;
    });
    return svg + "</svg>";
  }

  function nursery(p) {
    const s = 58, g = 4, size = 6 * (s + g);
    const row = new Set(p.gardener.row.map(([r, c]) => r * 4 + c));
    let svg = `<svg width="${size}" height="${size}" data-nursery="">`;
    svg += `<rect x="${s + g - 6}" y="${s + g - 6}" width="${4 * (s + g) + 8}" height="${4 * (s + g) + 8}" rx="12" fill="#7c9a5a"/>`;
    p.nursery.forEach((tile, i) => {
      const r = Math.floor(i / 4), c = i % 4;
      const x = (c + 1) * (s + g), y = (r + 1) * (s + g);
      const lit = row.has(i);
      svg += `<g data-nursery-cell="${i}" data-tile="${tile ? esc(tile.id) : ""}">`;
      svg += `<rect x="${x}" y="${y}" width="${s}" height="${s}" rx="6" fill="${lit ? "#fff4cf" : "#eef3e2"}" stroke="${lit ? "#e0a92a" : "#a9bd8c"}" stroke-width="${lit ? 3 : 1}"/>`;
      if (tile) {
        const rows = Math.max(...tile.cells.map((cell) => cell[0])) + 1;
        const cols = Math.max(...tile.cells.map((cell) => cell[1])) + 1;
        const k = Math.min(12, (s - 16) / rows, (s - 10) / cols);
        const ox = x + (s - cols * k) / 2, oy = y + 3 + (s - 14 - rows * k) / 2;
        const color = FLOWERS[(tile.kind.charCodeAt(0) * 7 + tile.kind.charCodeAt(1)) % FLOWERS.length];
        for (const [cr, cc, feature] of tile.cells) {
          const cx = ox + cc * k, cy = oy + cr * k;
          svg += `<rect x="${cx}" y="${cy}" width="${k}" height="${k}" fill="${color}" stroke="#3a2a1c" stroke-width=".8"/>`;
          if (feature === "pot") svg += `<circle cx="${cx + k / 2}" cy="${cy + k / 2}" r="${k * 0.28}" fill="#c8643b"/>`;
          if (feature === "cloche") svg += `<circle cx="${cx + k / 2}" cy="${cy + k / 2}" r="${k * 0.28}" fill="#d8eefc" stroke="#5f8fb0"/>`;
        }
        svg += `<text x="${x + s / 2}" y="${y + s - 4}" font-size="10" font-weight="600" text-anchor="middle" fill="#4b5d33">${esc(tile.kind)}</text>`;
      }
      svg += "</g>";
    });
    const [gr, gc] = p.gardener.at;
    const gx = gc * (s + g) + s / 2, gy = gr * (s + g) + s / 2;
    svg += `<g data-gardener="${p.gardener.space}"><circle cx="${gx}" cy="${gy}" r="${s * 0.36}" fill="#fff" stroke="#4f7d3a" stroke-width="2"/>` +
      `<circle cx="${gx}" cy="${gy - 8}" r="6" fill="#e8b48a"/><path d="M${gx - 9} ${gy + 13} Q${gx} ${gy - 6} ${gx + 9} ${gy + 13} Z" fill="#4f7d3a"/>` +
      `<path d="M${gx - 10} ${gy - 11} L${gx + 10} ${gy - 11} L${gx + 5} ${gy - 16} L${gx - 5} ${gy - 16} Z" fill="#c9a05a"/></g>`;
    // The die: the gardener's value, rising to the final value.
    const dx = 6, dy = 6;
    svg += `<g data-die="${p.gardener.value}"><rect x="${dx}" y="${dy}" width="40" height="40" rx="8" fill="#fff" stroke="#6b5a4a" stroke-width="1.5"/>` +
      `<text x="${dx + 20}" y="${dy + 27}" font-size="20" font-weight="700" text-anchor="middle" fill="#2f2a24">${p.gardener.value}</text>` +
      `<text x="${dx + 20}" y="${dy + 54}" font-size="9" text-anchor="middle" fill="#7a6f62">of ${p.gardener.final_value}</text></g>`;
    return svg + "</svg>";
  }

  window.drawGame = function (element, p, options) {
    const status = p.end ? `game over (${esc(p.end)})`
      : p.turn === 0 ? `setup: seat ${p.seat} chooses` : `seat ${p.seat} to play \u00b7 ${esc(p.phase)}`;
    const path = p.path.slice(0, 18).map((id) => `<span class="cg-chip">${esc(id.split("-")[0])}</span>`).join("") +
      (p.path.length > 18 ? `<span class="cg-chip">+${p.path.length - 18}</span>` : "");
    let html = `<div class="cg-top"><div class="cg-box"><h3>Nursery</h3>${nursery(p)}</div>` +
      `<div class="cg-box"><h3>Table</h3><div class="cg-facts">` +
      `<span>turn</span><b data-status>${p.turn}${p.final_round ? " \u00b7 final round" : ""}</b>` +
      `<span>now</span><b>${status}</b>` +
      `<span>gardener</span><b>space ${p.gardener.space + 1} of ${p.gardener.spaces}, value ${p.gardener.value}/${p.gardener.final_value}</b>` +
      `<span>supply</span><b>${p.supply.cats} cats, ${p.supply.pots} flowerpots</b>` +
      `<span>path</span><b data-path="${p.path.length}">${p.path.length} tiles</b></div>` +
      `<h3 style="margin-top:10px">Garden path, front first</h3><div class="cg-path">${path || "<i>empty</i>"}</div></div></div>`;
    html += `<div class="cg-players">`;
    p.players.forEach((pl, seat) => {
      const color = options.colors[seat % options.colors.length];
      const turn = !p.end && p.seat === seat ? " cg-turn" : "";
      const who = `seat ${seat}${pl.child ? ` (child, ${pl.child})` : ""}`;
      const hive = pl.beehive !== null ? ` \u00b7 beehive ${pl.beehive}` : "";
      html += `<div class="cg-box cg-player${turn}" style="--c:${color}" data-seat="${seat}">` +
        `<div class="cg-head"><span class="cg-name">${esc(who)}</span><span>${esc(options.seats[seat] || "")}</span>` +
        `<span class="cg-score" data-score="${seat}">${pl.score}<small>points</small></span></div>` +
        `<div class="cg-meta"><svg width="16" height="16" style="vertical-align:-3px">${cat(0, 0, 16)}</svg> ${pl.cats} cats in reserve${hive}</div>` +
        `<div class="cg-beds">${bed(seat, 0, pl.beds[0])}${bed(seat, 1, pl.beds[1])}</div>` +
        `<div class="cg-tracks"><div>${track("orange", p.tracks.orange, pl.orange, "#e8892e", p.red_line)}</div>` +
        `<div>${track("blue", p.tracks.blue, pl.blue, "#3f7fc0", p.red_line)}</div></div></div>`;
    });
    element.innerHTML = html + "</div>";
  };
})();
