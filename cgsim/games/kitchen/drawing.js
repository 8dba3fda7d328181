// Kitchen Garden on the replay page: draws one picture (cgsim/games/kitchen/picture.py).
// Hands are hidden card backs unless the page shows everyone's view or the seat's own.
window.HIDDEN_HANDS = true;
(function () {
  "use strict";
  const esc = (text) => String(text).replace(/[&<>"]/g,
    (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"})[c]);
  const OTHERS = {weed: ["#5d7f3a", "Weed"], worker: ["#7a6a55", "Worker"], sluggard: ["#9a6b3f", "Sluggard"]};

  const style = document.createElement("style");
  style.textContent = `
    .kg-row { display: flex; gap: 16px; flex-wrap: wrap; margin-bottom: 14px; align-items: stretch; }
    .kg-box { background: #fffdf8; border: 1px solid #e6dccb; border-radius: 10px; padding: 10px 12px;
      box-shadow: 0 1px 2px rgba(60,40,10,.06); }
    .kg-box h3 { margin: 0 0 6px; font: 600 13px Georgia, "DejaVu Serif", serif; color: #7a6f62;
      text-transform: uppercase; letter-spacing: .8px; }
    .kg-cards { display: flex; gap: 6px; flex-wrap: wrap; align-items: center; }
    .kg-card { width: 46px; height: 64px; border-radius: 6px; border: 1px solid rgba(0,0,0,.25);
      display: flex; flex-direction: column; align-items: center; justify-content: center; color: #fff;
      font: 700 20px/1 Georgia, "DejaVu Serif", serif; box-shadow: 0 1px 2px rgba(0,0,0,.15);
      background: var(--c); position: relative; }
    .kg-card small { font: 600 9px/1.1 sans-serif; margin-top: 4px; text-align: center; }
    .kg-card.kg-small { width: 34px; height: 46px; font-size: 15px; }
    .kg-card.kg-small small { font-size: 7.5px; }
    .kg-card.kg-back { background: repeating-linear-gradient(45deg, #4f7d3a 0 5px, #5f8f48 5px 10px); }
    .kg-card.kg-empty { background: transparent; border: 1.5px dashed #cdbfa6; box-shadow: none; }
    .kg-seats { display: grid; grid-template-columns: repeat(auto-fill, minmax(420px, 1fr)); gap: 14px; }
    .kg-seat { border-top: 5px solid var(--s); }
    .kg-seat.kg-turn { box-shadow: 0 0 0 3px rgba(79,125,58,.35), 0 2px 6px rgba(60,40,10,.15); }
    .kg-head { display: flex; align-items: baseline; gap: 10px; margin-bottom: 6px; }
    .kg-head .kg-name { font: 600 16px Georgia, "DejaVu Serif", serif; }
    .kg-head .kg-score { margin-left: auto; font: 700 26px Georgia, "DejaVu Serif", serif; color: var(--s); }
    .kg-head .kg-score small { font: 12px sans-serif; color: #7a6f62; margin-left: 3px; }
    .kg-bed { display: grid; grid-template-columns: 86px 1fr 64px; align-items: center; gap: 8px;
      padding: 4px 0; border-bottom: 1px dotted #e6dccb; }
    .kg-bed .kg-crop { font-weight: 600; text-transform: capitalize; }
    .kg-bar { height: 7px; border-radius: 4px; background: #efe6d4; overflow: hidden; margin-top: 3px; }
    .kg-bar span { display: block; height: 100%; background: var(--c); }
    .kg-full { color: #3f7a2f; font-weight: 700; }
    .kg-facts { display: grid; grid-template-columns: auto auto; gap: 2px 12px; font-size: 13px; }
    .kg-tag { display: inline-block; font-size: 11px; padding: 1px 6px; border-radius: 8px; background: #f3e2c6; }
  `;
  document.head.appendChild(style);

  function hue(crop) {
    let h = 0;
    for (const ch of crop) h = (h * 31 + ch.charCodeAt(0)) % 360;
    return `hsl(${h}, 55%, 45%)`;
  }
  function card(c, small) {
    const size = small ? " kg-small" : "";
    if (c.kind === "plant") {
      return `<div class="kg-card${size}" style="--c:${hue(c.crop)}" data-card="${esc(c.crop)}-${c.plants}">${c.plants}<small>${esc(c.crop)}</small></div>`;
    }
    const [color, name] = OTHERS[c.kind] || ["#777", c.kind];
    const mark = {weed: "&#x2698;", worker: "&#x2692;", sluggard: "&#x223F;"}[c.kind] || "?";
    return `<div class="kg-card${size}" style="--c:${color}" data-card="${esc(c.kind)}">${mark}<small>${esc(name)}</small></div>`;
  }
  const back = (small) => `<div class="kg-card kg-back${small ? " kg-small" : ""}" data-card="hidden"></div>`;

  window.drawGame = function (element, p, options) {
    const status = p.over
      ? (p.winner !== null ? `seat ${p.winner} wins` : "aborted at the turn cap")
      : `seat ${p.active} plays \u00b7 ${esc(p.phase)}` +
        (p.actions_left !== null ? ` \u00b7 ${p.actions_left} action${p.actions_left === 1 ? "" : "s"} left` : "") +
        (p.decider !== p.active ? ` \u00b7 seat ${p.decider} decides` : "");
    const specials = p.specials.map((sp) =>
      `<span>${esc(sp.name)}</span><b>${sp.holders.map((h) => typeof h === "number" ? `seat ${h}` : h).join(", ")}</b>`).join("");
    let html = `<div class="kg-row"><div class="kg-box"><h3>Market</h3><div class="kg-cards" data-market="${p.market.length}">` +
      p.market.map((c) => card(c, false)).join("") + `</div></div>` +
      `<div class="kg-box"><h3>Table</h3><div class="kg-facts"><span>turn</span><b data-status>${p.turn}</b>` +
      `<span>now</span><b>${status}</b><span>deck</span><b data-deck="${p.deck}">${p.deck} cards</b>` +
      `<span>discard</span><b>${p.discard} cards${p.reshuffles ? ` \u00b7 ${p.reshuffles} reshuffles` : ""}</b>${specials}</div></div>` +
      `<div class="kg-box"><h3>Discard top</h3><div class="kg-cards">${p.discard_top ? card(p.discard_top, false) : '<div class="kg-card kg-empty"></div>'}</div></div></div>`;
    html += `<div class="kg-seats">`;
    p.seats.forEach((st, seat) => {
      const color = options.colors[seat % options.colors.length];
      const turn = !p.over && p.active === seat ? " kg-turn" : "";
      const shown = options.viewAs === "all" || Number(options.viewAs) === seat;
      const beds = st.beds.map((b) => {
        const slots = b.cards.map((c) => card(c, true)).join("") +
          '<div class="kg-card kg-small kg-empty"></div>'.repeat(Math.max(0, b.slots - b.cards.length));
        const share = Math.min(100, Math.round((100 * b.plants) / Math.max(1, b.target)));
        return `<div class="kg-bed" data-bed="${seat}-${esc(b.crop)}" data-plants="${b.plants}"><div><div class="kg-crop">${esc(b.crop)}</div>` +
          `<div class="kg-bar" style="--c:${hue(b.crop)}"><span style="width:${share}%"></span></div></div>` +
          `<div class="kg-cards">${slots}</div><div>${b.plants}/${b.target}${b.full ? ' <span class="kg-full">&#x2713;</span>' : ""}</div></div>`;
      }).join("");
      const hand = shown ? st.hand.map((c) => card(c, true)).join("") : st.hand.map(() => back(true)).join("");
      html += `<div class="kg-box kg-seat${turn}" style="--s:${color}" data-seat="${seat}">` +
        `<div class="kg-head"><span class="kg-name">seat ${seat}</span><span>${esc(options.seats[seat] || "")}</span>` +
        `<span class="kg-tag">task: ${esc(st.task)}</span>${st.sluggard ? '<span class="kg-tag">Sluggard in front</span>' : ""}` +
        `<span class="kg-score" data-score="${seat}">${st.plants}<small>plants</small></span></div>` +
        beds + `<div style="margin-top:8px"><h3 style="margin:0 0 4px;font:600 12px sans-serif;color:#7a6f62">` +
        `Hand (${st.hand.length})${shown ? "" : " \u00b7 hidden"}</h3><div class="kg-cards" data-hand="${seat}" data-shown="${shown}">${hand || "<i>empty</i>"}</div></div></div>`;
    });
    element.innerHTML = html + "</div>";
  };
})();
