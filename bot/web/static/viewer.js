// The game viewer (bot/web/viewer.py): draws a tournament's board in SVG from game.json, steps
// through its turns and through one turn's resolution, and polls for new turns while it runs.
// Every colour, proportion and mark comes from the server (bot/render, exported by
// bot/web/board_style.py), every word too (bot/locales/*/viewer.ftl): this file only draws.
"use strict";
(function () {
  const config = JSON.parse(document.getElementById("viewer-config").textContent);
  const S = config.strings;
  const STYLE = config.style;
  const C = STYLE.colours;
  const SZ = STYLE.sizes;
  const MARKS = STYLE.marks;
  const NS = "http://www.w3.org/2000/svg";
  const MARGIN = 0.55;
  const MAX_WAIT = 10000;
  const $ = (id) => document.getElementById(id);

  const state = {
    game: null,
    shown: -1,
    follow: true,
    steps: null,
    patterns: false,
    etag: null,
    failures: 0,
    layers: null,
  };

  // ------------------------------------------------------------------ SVG helpers

  function node(name, attrs, parent) {
    const made = document.createElementNS(NS, name);
    for (const key in attrs) {
      if (attrs[key] !== undefined && attrs[key] !== null) made.setAttribute(key, attrs[key]);
    }
    if (parent) parent.appendChild(made);
    return made;
  }

  function clear(element) {
    while (element.firstChild) element.removeChild(element.firstChild);
  }

  // A shape exported by bot/web/board_style.py ({"c"}, {"r"} or {"p"}, in tiles), moved by dx, dy.
  function shape(found, parent, attrs, dx, dy) {
    dx = dx || 0;
    dy = dy || 0;
    if (found.c) {
      return node("circle", Object.assign({ cx: found.c[0] + dx, cy: found.c[1] + dy, r: found.c[2] }, attrs), parent);
    }
    if (found.r) {
      const [x0, y0, x1, y1] = found.r;
      return node("rect", Object.assign({ x: x0 + dx, y: y0 + dy, width: x1 - x0, height: y1 - y0 }, attrs), parent);
    }
    const points = found.p.map(([x, y]) => `${x + dx},${y + dy}`).join(" ");
    return node("polygon", Object.assign({ points }, attrs), parent);
  }

  function layers(list, parent, dx, dy) {
    for (const layer of list) {
      for (const found of layer.shapes) {
        shape(found, parent, { fill: layer.fill, "fill-opacity": layer.opacity < 1 ? layer.opacity : null }, dx, dy);
      }
    }
  }

  // Shapes with an outline grown around them, as sprites.outlined draws them: every outline
  // first, then every fill, so joined shapes show one outline.
  function outlined(shapes, colour, width, parent, opacity) {
    const extra = opacity === undefined ? {} : { "fill-opacity": opacity, "stroke-opacity": opacity };
    for (const found of shapes) {
      shape(found, parent, Object.assign({ fill: C.outline, stroke: C.outline, "stroke-width": 2 * width, "stroke-linejoin": "miter", "stroke-miterlimit": 10 }, extra), found.dx, found.dy);
    }
    for (const found of shapes) {
      shape(found, parent, Object.assign({ fill: colour }, opacity === undefined ? {} : { "fill-opacity": opacity }), found.dx, found.dy);
    }
  }

  const key = (tile) => `${tile[0]},${tile[1]}`;
  const same = (a, b) => a && b && a[0] === b[0] && a[1] === b[1];

  // ------------------------------------------------------------------ the board

  function buildBoard() {
    const field = state.game.battlefield;
    const root = node("svg", {
      viewBox: `${-MARGIN} ${-MARGIN} ${field.cols + 2 * MARGIN} ${field.rows + 2 * MARGIN}`,
      "aria-hidden": "true",
      focusable: "false",
      "font-family": "system-ui, sans-serif",
    });
    node("rect", { x: -MARGIN, y: -MARGIN, width: field.cols + 2 * MARGIN, height: field.rows + 2 * MARGIN, fill: C.background }, root);
    patternDefs(node("defs", {}, root));
    const tiles = node("g", { class: "tiles" }, root);
    drawTiles(tiles);
    drawCoordinates(node("g", { class: "coordinates" }, root));
    state.layers = {
      root,
      tiles,
      terrain: node("g", { class: "terrain" }, root),
      under: node("g", { class: "under" }, root),
      pieces: node("g", { class: "pieces" }, root),
      chests: node("g", { class: "chests" }, root),
      over: node("g", { class: "over" }, root),
    };
    const board = $("board");
    clear(board);
    board.appendChild(root);
  }

  function patternDefs(defs) {
    for (const [letter, dynasty] of Object.entries(STYLE.dynasties)) {
      const spec = dynasty.pattern;
      const side = 0.16;
      const pattern = node("pattern", {
        id: `pattern-${letter}`,
        patternUnits: "userSpaceOnUse",
        width: side,
        height: side,
        patternTransform: spec.angle ? `rotate(${spec.angle})` : null,
      }, defs);
      const ink = { fill: dynasty.ink, "fill-opacity": 0.7 };
      if (spec.kind === "lines" || spec.kind === "grid") {
        node("rect", Object.assign({ x: 0, y: 0, width: side, height: 0.045 }, ink), pattern);
      }
      if (spec.kind === "grid") {
        node("rect", Object.assign({ x: 0, y: 0, width: 0.045, height: side }, ink), pattern);
      }
      if (spec.kind === "dots") {
        node("circle", Object.assign({ cx: side / 2, cy: side / 2, r: 0.035 }, ink), pattern);
      }
      if (spec.kind === "rings") {
        node("circle", { cx: side / 2, cy: side / 2, r: 0.045, fill: "none", stroke: dynasty.ink, "stroke-opacity": 0.7, "stroke-width": 0.02 }, pattern);
      }
      // A home zone (R-V1a), as the deployment board draws it: stripes of its dynasty's colour.
      const stripes = node("pattern", { id: `home-${letter}`, patternUnits: "userSpaceOnUse", width: 0.2, height: 0.2, patternTransform: "rotate(45)" }, defs);
      node("rect", { x: 0, y: 0, width: 0.07, height: 0.2, fill: dynasty.colour, "fill-opacity": SZ.home_stripe }, stripes);
    }
  }

  function drawTiles(group) {
    clear(group);
    const gap = SZ.tile_gap;
    for (const { tile: [row, col], kind, dynasty: letter, home } of state.game.battlefield.tiles) {
      const shade = (row + col) % 2 === 0 ? 0 : 1;
      let colour = shade === 0 ? C.tile_light : C.tile_dark;
      if (kind === "treasure") colour = C.treasure;
      else if (kind === "mountain") colour = C.mountain;
      else if (letter) colour = STYLE.dynasties[letter].start[kind === "emperor-start" ? "emperor" : "pawn"][shade];
      const square = { x: col + gap, y: row + gap, width: 1 - 2 * gap, height: 1 - 2 * gap, rx: SZ.tile_corner };
      node("rect", Object.assign({ fill: colour, class: "tile", "data-tile": `${row},${col}`, "data-kind": kind, "data-home": home }, square), group);
      if (home) node("rect", Object.assign({ fill: `url(#home-${home})`, class: "home" }, square), group);
      if (kind === "treasure") layers(MARKS.gem, group, col + 0.5, row + 0.5);
      if (kind === "mountain") layers(MARKS.mountain, group, col + 0.5, row + 0.5);
      if (kind === "monument") layers(MARKS.monument, group, col + 0.5, row + 0.5);
      if (letter && state.patterns) {
        const mark = node("text", { x: col + 0.1, y: row + 0.9, "font-size": 0.22, "font-weight": 700, fill: C.outline, "fill-opacity": 0.6 }, group);
        mark.textContent = letter;
      }
    }
  }

  function drawCoordinates(group) {
    const field = state.game.battlefield;
    const attrs = { "font-size": 0.3, fill: C.label, "text-anchor": "middle", "dominant-baseline": "central" };
    for (let col = 0; col < field.cols; col++) {
      for (const y of [-MARGIN / 2, field.rows + MARGIN / 2]) {
        node("text", Object.assign({ x: col + 0.5, y }, attrs), group).textContent = String.fromCharCode(65 + col);
      }
    }
    for (let row = 0; row < field.rows; row++) {
      for (const x of [-MARGIN / 2, field.cols + MARGIN / 2]) {
        node("text", Object.assign({ x, y: row + 0.5 }, attrs), group).textContent = String(row + 1);
      }
    }
  }

  // A piece as sprites.piece draws it: crown or disc, its letter, its experience badge.
  function drawPiece(parent, piece, tile, extra) {
    const group = node("g", Object.assign({
      transform: `translate(${tile[1] + 0.5} ${tile[0] + 0.5})`,
      class: "piece",
      "data-tile": key(tile),
      "data-dynasty": piece.dynasty,
      "data-kind": piece.kind,
      "data-experience": piece.experience,
      "data-neutral": piece.neutral ? "yes" : null,
    }, extra || {}), parent);
    const spec = STYLE.pieces[piece.kind];
    const dynasty = STYLE.dynasties[piece.dynasty];
    const colour = piece.neutral ? C.neutral : dynasty.colour;
    const ink = piece.neutral ? C.neutral_ink : dynasty.ink;
    for (const found of spec.outline) shape(found, group, { fill: C.outline });
    for (const found of spec.body) shape(found, group, { fill: colour });
    if (state.patterns && !piece.neutral) {
      for (const found of spec.body) shape(found, group, { fill: `url(#pattern-${piece.dynasty})` });
    }
    const letter = node("text", {
      x: 0,
      y: spec.letter_y,
      "font-size": spec.letter_size,
      "font-weight": 700,
      fill: ink,
      "text-anchor": "middle",
      "dominant-baseline": "central",
    }, group);
    if (state.patterns && !piece.neutral) {
      letter.setAttribute("stroke", colour);
      letter.setAttribute("stroke-width", 0.07);
      letter.setAttribute("paint-order", "stroke");
    }
    letter.textContent = piece.dynasty;
    if (piece.experience !== undefined && piece.experience !== null) {
      const digits = String(piece.experience).length;
      const badge = STYLE.badges[Math.min(digits, STYLE.badges.length) - 1];
      for (const found of badge.outline) shape(found, group, { fill: C.outline });
      for (const found of badge.body) shape(found, group, { fill: C.white });
      node("text", {
        x: badge.x,
        y: SZ.badge_y,
        "font-size": SZ.badge_text,
        fill: C.outline,
        "text-anchor": "middle",
        "dominant-baseline": "central",
      }, group).textContent = String(piece.experience);
    }
    return group;
  }

  function piecesOf(position) {
    const defeated = new Set(position.defeated);
    return position.pieces.map(([row, col, dynasty, kind, experience]) => ({
      tile: [row, col],
      piece: { dynasty, kind, experience, neutral: defeated.has(dynasty) },
    }));
  }

  function drawChests(chests) {
    const group = state.layers.chests;
    clear(group);
    for (const { tile, captured_by: captor } of chests) {
      layers(captor ? MARKS.chest_captured : MARKS.chest, group, tile[1] + 0.5, tile[0] + 0.5);
    }
  }

  // ------------------------------------------------------------------ the last turn's marks

  const ANGLES = { right: 0, down: 90, left: 180, up: 270 };

  function direction(from, to) {
    if (from[0] === to[0]) return to[1] > from[1] ? "right" : "left";
    return to[0] > from[0] ? "down" : "up";
  }

  function distance(from, to) {
    return Math.abs(to[0] - from[0]) + Math.abs(to[1] - from[1]);
  }

  // Arrows running against each other over the same tiles are shifted aside (overlay._lanes).
  function lanes(moves) {
    const spans = moves.map((move) => {
      const [from, to] = [move.from, move.to];
      const line = from[0] === to[0] ? `r${from[0]}` : `c${from[1]}`;
      const [a, b] = from[0] === to[0] ? [from[1], to[1]] : [from[0], to[0]];
      return [line, Math.min(a, b), Math.max(a, b), b > a];
    });
    return spans.map(([line, low, high, forward]) =>
      spans.some((other) => line === other[0] && forward !== other[3] && other[1] < high && low < other[2]) ? 1 : 0);
  }

  function frame(from, to, parent) {
    return node("g", { transform: `translate(${from[1] + 0.5} ${from[0] + 0.5}) rotate(${ANGLES[direction(from, to)]})` }, parent);
  }

  function head(tip, y, template) {
    return Object.assign({}, template, { dx: tip, dy: y });
  }

  function drawArrow(parent, move, lane, fromEdge, colour) {
    const length = distance(move.from, move.to);
    const kept = move.outcome === "reached" ? length : distance(move.from, move.final);
    const group = frame(move.from, move.to, parent);
    const y = lane * SZ.lane;
    const reach = SZ.piece_reach;
    const solid = [];
    if (!fromEdge) solid.push({ c: [0, y, SZ.tail_radius] });
    if (kept > 0) {
      const tip = kept - reach;
      const shaft = [fromEdge ? reach : 0, y - SZ.shaft_half_width, tip - SZ.head_length + 0.02, y + SZ.shaft_half_width];
      if (shaft[2] > shaft[0]) solid.push({ r: shaft }); // too short a shaft is left out, as on the PNG boards
      solid.push(head(tip, y, MARKS.head));
    }
    outlined(solid, colour, SZ.outline, group);
    if (kept < length) {
      const tip = length - reach;
      outlined([head(tip, y, MARKS.head)], colour, SZ.outline, group);
      shape(MARKS.hollow_head, group, { fill: C.white }, tip, y);
    }
  }

  function drawTrack(parent, move, lane, colour) {
    const length = distance(move.from, move.to);
    const kept = distance(move.from, move.final);
    const group = frame(move.from, move.to, parent);
    const y = lane * SZ.lane;
    const band = { r: [kept, y - SZ.track_half_width, length, y + SZ.track_half_width] };
    outlined([band], colour, SZ.outline * 0.6, group, SZ.track_opacity);
  }

  function drawClash(parent, tile, occupied) {
    const size = occupied ? SZ.clash_size_by_piece : SZ.clash_size;
    const [dx, dy] = occupied ? SZ.clash_by_piece : [0, 0];
    const x = tile[1] + 0.5 + dx;
    const y = tile[0] + 0.5 + dy + SZ.clash_drop * size;
    const group = node("g", { transform: `translate(${x} ${y}) scale(${size})`, class: "clash" }, parent);
    layers(MARKS.clash, group);
  }

  function drawMarks(turn, occupied) {
    const { under, over } = state.layers;
    const moves = turn.moves || [];
    const shifted = lanes(moves);
    for (const capture of turn.captures || []) {
      const tile = capture.pushed_to || capture.tile;
      layers(MARKS.burst, under, tile[1] + 0.5, tile[0] + 0.5);
    }
    moves.forEach((move, index) => {
      if (move.outcome !== "reached") drawTrack(under, move, shifted[index], STYLE.dynasties[move.dynasty].colour);
    });
    for (const capture of turn.captures || []) {
      if (capture.left && !occupied.has(key(capture.tile))) drawGhost(over, capture.taken, capture.tile);
    }
    moves.forEach((move, index) => {
      drawArrow(over, move, shifted[index], occupied.has(key(move.from)), STYLE.dynasties[move.dynasty].colour);
    });
    const seen = new Set();
    for (const tile of turn.conflicts || []) {
      if (seen.has(key(tile))) continue;
      seen.add(key(tile));
      drawClash(over, tile, occupied.has(key(tile)));
    }
  }

  function clearLayers() {
    const { terrain, under, pieces, chests, over } = state.layers;
    for (const group of [terrain, under, pieces, chests, over]) clear(group);
  }

  // Section 10 under the pieces, as the PNG boards draw it: each painted tile in its dynasty's
  // colour with its letter (R-V6a: never colour alone), each fortress's walls (R-V2b); and
  // over them the small obelisk of a monument a piece holds (R-V5a).
  function drawTerrain(turn, occupied) {
    const { terrain, over } = state.layers;
    const gap = SZ.tile_gap;
    for (const [row, col, letter] of turn.painted || []) {
      const shade = (row + col) % 2 === 0 ? 0 : 1;
      const dynasty = STYLE.dynasties[letter];
      node("rect", { x: col + gap, y: row + gap, width: 1 - 2 * gap, height: 1 - 2 * gap, rx: SZ.tile_corner, fill: dynasty.painted[shade], class: "painted", "data-tile": `${row},${col}`, "data-dynasty": letter }, terrain);
      const held = occupied.has(`${row},${col}`);
      const [dx, dy] = held ? SZ.paint_corner : [0, 0];
      node("text", {
        x: col + 0.5 + dx,
        y: row + 0.5 + dy,
        "font-size": held ? SZ.paint_corner_size : SZ.paint_letter,
        "font-weight": 700,
        fill: dynasty.painted_ink[shade],
        "text-anchor": "middle",
        "dominant-baseline": "central",
        class: "painted-letter",
      }, held ? over : terrain).textContent = letter;
    }
    for (const tile of turn.fortresses || []) {
      layers(MARKS.fortress, node("g", { class: "fortress", "data-tile": key(tile) }, terrain), tile[1] + 0.5, tile[0] + 0.5);
    }
    for (const { tile: [row, col], kind } of state.game.battlefield.tiles) {
      if (kind === "monument" && occupied.has(`${row},${col}`)) layers(MARKS.monument_corner, over, col + 0.5, row + 0.5);
    }
  }

  // The marks of section 10's events: a shield beside a piece a take attempt failed on
  // (R-V0c), a dark burst and the crossed-out target of a mutual destruction (R-V4b), a gold
  // ring and sparks around a pawn crowned (R-V3b).
  function drawEvents(turn, occupied) {
    const { under, over } = state.layers;
    for (const { tile, target } of turn.wrecked || []) {
      layers(MARKS.wreck, under, tile[1] + 0.5, tile[0] + 0.5);
      if (!occupied.has(key(tile))) drawGhost(over, target, tile);
    }
    for (const tile of turn.crowned || []) {
      layers(MARKS.halo, under, tile[1] + 0.5, tile[0] + 0.5);
      layers(MARKS.sparks, over, tile[1] + 0.5, tile[0] + 0.5);
    }
    for (const tile of turn.failed || []) {
      layers(MARKS.shield, node("g", { class: "failed", "data-tile": key(tile) }, over), tile[1] + 0.5, tile[0] + 0.5);
    }
  }

  function drawGhost(parent, piece, tile) {
    const spec = STYLE.pieces[piece.kind];
    const group = node("g", { transform: `translate(${tile[1] + 0.5} ${tile[0] + 0.5})`, class: "ghost" }, parent);
    for (const found of spec.outline) shape(found, group, { fill: C.outline });
    for (const found of spec.body) shape(found, group, { fill: STYLE.dynasties[piece.dynasty].faded });
    layers(MARKS.cross, group);
  }

  function drawPosition(turn) {
    clearLayers();
    const placed = piecesOf(turn.position);
    const occupied = new Set(placed.map((found) => key(found.tile)));
    drawTerrain(turn, occupied);
    if (turn.moves) {
      drawMarks(turn, occupied);
      drawEvents(turn, occupied);
    }
    for (const found of placed) drawPiece(state.layers.pieces, found.piece, found.tile);
    drawChests(turn.chests || []);
  }

  // ------------------------------------------------------------------ turns

  function lastIndex() {
    return state.game.turns.length - 1;
  }

  function showTurn(index) {
    const turns = state.game.turns;
    if (!turns.length) return;
    index = Math.max(0, Math.min(index, turns.length - 1));
    closeSteps(false);
    state.shown = index;
    state.follow = index === turns.length - 1;
    const turn = turns[index];
    drawPosition(turn);
    $("turn-title").textContent = turn.title;
    $("board-words").textContent = turn.summary;
    document.body.dataset.turn = String(turn.turn);
    fillNarration(turn.narration || []);
    fillLegend(turn);
    updateControls();
  }

  function fillNarration(lines) {
    const list = $("narration");
    clear(list);
    for (const line of lines) {
      const item = document.createElement("li");
      item.textContent = line;
      list.appendChild(item);
    }
  }

  function fillLegend(turn) {
    const list = $("legend");
    clear(list);
    const defeated = new Set(turn.position.defeated);
    for (const seat of state.game.seats) {
      const item = document.createElement("li");
      if (defeated.has(seat.letter)) item.className = "out";
      const icon = node("svg", { viewBox: "-0.5 -0.5 1 1", "aria-hidden": "true" }, item);
      drawPiece(icon, { dynasty: seat.letter, kind: "pawn", neutral: defeated.has(seat.letter) }, [-0.5, -0.5]);
      const name = document.createElement("span");
      name.className = "name";
      name.textContent = seat.name;
      const count = document.createElement("span");
      count.className = "count";
      count.textContent = (turn.counts || {})[seat.letter] || "";
      item.append(name, count);
      list.appendChild(item);
    }
  }

  function updateControls() {
    const turns = state.game.turns;
    const slider = $("slider");
    slider.max = String(Math.max(turns.length - 1, 0));
    slider.value = String(Math.max(state.shown, 0));
    const turn = turns[state.shown];
    slider.setAttribute("aria-valuetext", turn ? turn.title : "");
    $("first").disabled = $("previous").disabled = state.shown <= 0;
    $("next").disabled = $("last").disabled = state.shown >= turns.length - 1;
    $("steps-open").disabled = !turn || !turn.moves || !turn.moves.length || state.shown < 1;
    const running = state.game.tournament.status === "running";
    $("live").hidden = !(running && state.shown === turns.length - 1);
  }

  function showHeader() {
    const tournament = state.game.tournament;
    $("title").textContent = tournament.title;
    document.title = tournament.title;
    $("status").textContent = tournament.status_text;
    const deadline = $("deadline");
    if (tournament.deadline) {
      const when = new Intl.DateTimeFormat(config.lang, { dateStyle: "medium", timeStyle: "short" }).format(new Date(tournament.deadline));
      deadline.textContent = S["viewer-deadline"].replace("{time}", when);
    } else {
      deadline.textContent = "";
    }
  }

  // ------------------------------------------------------------------ step through a turn

  function openSteps() {
    const index = state.shown;
    const turn = state.game.turns[index];
    if (index < 1 || !turn.moves || !turn.moves.length) return;
    const frames = [{ event: "orders" }, ...turn.steps.list, { event: "end" }];
    state.steps = { index: 0, turn: index, frames };
    $("turn-controls").hidden = true;
    $("step-controls").hidden = false;
    $("step-text").hidden = false;
    renderStep();
    $("step-next").focus();
  }

  function closeSteps(redraw) {
    if (!state.steps) return;
    state.steps = null;
    $("turn-controls").hidden = false;
    $("step-controls").hidden = true;
    $("step-text").hidden = true;
    delete document.body.dataset.step;
    if (redraw) showTurn(state.shown);
  }

  function stepBy(delta) {
    const steps = state.steps;
    steps.index = Math.max(0, Math.min(steps.index + delta, steps.frames.length - 1));
    renderStep();
  }

  // The board after the first `count` steps: pieces that held from the position before the
  // turn, and each moving piece where it stands or proposes now.
  function boardAfter(turn, before, count) {
    const held = new Map();
    for (const found of piecesOf(before.position)) held.set(key(found.tile), found);
    const movers = new Map();
    for (const move of turn.moves) {
      const found = held.get(key(move.from));
      held.delete(key(move.from));
      movers.set(key(move.from), { piece: found ? found.piece : { dynasty: move.dynasty, kind: move.kind }, from: move.from, to: move.to, at: move.from, fixed: false, left: false });
    }
    const steps = turn.steps.list;
    for (let index = 0; index < count && index < steps.length; index++) apply(steps[index], held, movers);
    return { held, movers };
  }

  function apply(step, held, movers) {
    if (step.event === "take" || step.event === "mutual") {
      const tile = key(step.tile);
      const changed = new Set(step.movers.map((mover) => key(mover.from)));
      let target = held.get(tile);
      let owner = held;
      let ownerKey = tile;
      if (!target) {
        for (const [from, mover] of movers) {
          if (!changed.has(from) && mover.fixed && !mover.left && key(mover.at) === tile) {
            target = { tile: mover.at, piece: mover.piece };
            owner = movers;
            ownerKey = from;
          }
        }
      }
      if (target) {
        const gone = step.event === "mutual" || !step.became;
        if (owner === movers) {
          const mover = movers.get(ownerKey);
          if (gone) mover.left = true;
          else {
            mover.piece = Object.assign({}, mover.piece, { dynasty: step.became.dynasty, kind: step.became.kind, neutral: false });
            if (step.pushed_to) mover.at = step.pushed_to;
          }
        } else if (gone) {
          held.delete(tile);
        } else {
          const piece = Object.assign({}, target.piece, { dynasty: step.became.dynasty, kind: step.became.kind, neutral: false });
          held.delete(tile);
          const place = step.pushed_to || step.tile;
          held.set(key(place), { tile: place, piece });
        }
      }
    }
    for (const change of step.movers) {
      const mover = movers.get(key(change.from));
      if (!mover) continue;
      mover.at = change.at;
      mover.fixed = change.fixed;
      if (change.left) mover.left = true;
    }
  }

  function drawOrder(parent, from, to) {
    const length = distance(from, to);
    const group = frame(from, to, parent);
    const reach = SZ.piece_reach;
    const tip = length - reach;
    const base = tip - SZ.head_length;
    const half = SZ.order_half_width;
    const parts = [];
    for (let x = reach; x < base; x += SZ.order_dash + SZ.order_gap) {
      parts.push({ r: [x, -half, Math.min(x + SZ.order_dash, base + 0.02), half] });
    }
    parts.push(head(tip, 0, MARKS.head));
    outlined(parts, C.white, SZ.outline, group);
  }

  function drawRing(parent, tile) {
    const x = tile[1] + 0.5;
    const y = tile[0] + 0.5;
    const outer = SZ.order_ring;
    const width = SZ.order_ring_width;
    node("circle", { cx: x, cy: y, r: outer - width / 2, fill: "none", stroke: C.outline, "stroke-width": width + 2 * SZ.outline }, parent);
    node("circle", { cx: x, cy: y, r: outer - width / 2, fill: "none", stroke: C.white, "stroke-width": width, class: "focus" }, parent);
  }

  function renderStep() {
    const steps = state.steps;
    const turn = state.game.turns[steps.turn];
    const before = state.game.turns[steps.turn - 1];
    const current = steps.frames[steps.index];
    const total = steps.frames.length;
    document.body.dataset.step = String(steps.index);
    $("step-count").textContent = S["viewer-step-count"].replace("{step}", String(steps.index + 1)).replace("{steps}", String(total));
    $("step-previous").disabled = steps.index === 0;
    $("step-next").disabled = steps.index === total - 1;
    let words;
    if (current.event === "end") {
      drawPosition(turn);
      words = S["viewer-steps-end"];
    } else {
      const count = steps.index;
      const { held, movers } = boardAfter(turn, before, count);
      clearLayers();
      const { under, pieces, over } = state.layers;
      const standing = new Set([...held.keys(), ...[...movers.values()].filter((m) => !m.left).map((m) => key(m.at))]);
      drawTerrain(before, standing);
      for (const found of held.values()) drawPiece(pieces, found.piece, found.tile);
      for (const mover of movers.values()) {
        if (mover.left) continue;
        if (!mover.fixed) drawOrder(over, mover.from, mover.to);
        drawPiece(pieces, mover.piece, mover.at, mover.fixed ? { "data-moving": "fixed" } : { "data-moving": "proposing", opacity: 0.7 });
      }
      if (current.tile) {
        const here = key(current.tile);
        const occupied = held.has(here) || [...movers.values()].some((mover) => !mover.left && key(mover.at) === here);
        if (current.event === "take") layers(MARKS.burst, under, current.tile[1] + 0.5, current.tile[0] + 0.5);
        if (current.event === "mutual") layers(MARKS.wreck, under, current.tile[1] + 0.5, current.tile[0] + 0.5);
        if (current.event === "failed") layers(MARKS.shield, over, current.tile[1] + 0.5, current.tile[0] + 0.5);
        drawRing(over, current.tile);
        if (current.event === "conflict") drawClash(over, current.tile, occupied);
      }
      drawChests(before.chests || []);
      words = current.event === "orders" ? S["viewer-steps-orders"] : current.text;
    }
    $("step-text").textContent = words;
    document.body.dataset.stepEvent = current.event;
  }

  // ------------------------------------------------------------------ loading and live turns

  function lastTurn() {
    const turns = state.game.turns;
    return turns.length ? turns[turns.length - 1].turn : -1;
  }

  function merge(data) {
    if (!state.game) {
      state.game = data;
      buildBoard();
      showHeader();
      if (data.turns.length) {
        showTurn(data.turns.length - 1);
      } else {
        updateControls();
        fillLegend({ position: { pieces: [], defeated: [] }, counts: {} });
        $("turn-title").textContent = S["viewer-waiting"];
      }
      performance.mark("viewer-first-board");
      document.body.dataset.ready = "yes";
      return;
    }
    const game = state.game;
    const following = state.follow;
    game.tournament = data.tournament;
    game.seats = data.seats;
    game.version = data.version;
    const known = lastTurn();
    const fresh = data.turns.filter((turn) => turn.turn > known);
    game.turns.push(...fresh);
    showHeader();
    if (fresh.length && following && !state.steps) showTurn(lastIndex());
    else updateControls();
  }

  function offline(failed) {
    $("status").textContent = failed ? S["viewer-offline"] : state.game ? state.game.tournament.status_text : "";
  }

  async function poll() {
    let request;
    if (state.game) {
      const address = new URL(config.game, window.location.href);
      address.searchParams.set("lang", config.lang);
      address.searchParams.set("since", String(lastTurn()));
      const headers = state.etag ? { "If-None-Match": state.etag } : {};
      request = fetch(address, { headers, cache: "no-store" });
    } else {
      request = fetch(config.first); // the page preloads this very request
    }
    let response;
    try {
      response = await request;
    } catch (error) {
      state.failures += 1;
      offline(true);
      return schedule();
    }
    if (response.status === 404) {
      $("status").textContent = S["viewer-gone"];
      $("deadline").textContent = "";
      return;
    }
    if (response.status === 304) {
      if (state.failures) offline(false);
      state.failures = 0;
      return schedule();
    }
    if (!response.ok) {
      state.failures += 1;
      offline(true);
      return schedule();
    }
    const data = await response.json();
    if (!state.game) performance.mark("viewer-data");
    state.failures = 0;
    state.etag = response.headers.get("ETag");
    merge(data);
    schedule();
  }

  function schedule() {
    const status = state.game ? state.game.tournament.status : "open";
    if (status === "finished" || status === "cancelled") return;
    const base = document.hidden ? 5 * config.poll : config.poll;
    const wait = Math.min(base * Math.pow(2, state.failures), MAX_WAIT);
    window.setTimeout(poll, wait);
  }

  // ------------------------------------------------------------------ controls

  function turnBy(delta) {
    if (state.game && state.game.turns.length) showTurn(state.shown + delta);
  }

  function bind() {
    $("first").addEventListener("click", () => showTurn(0));
    $("previous").addEventListener("click", () => turnBy(-1));
    $("next").addEventListener("click", () => turnBy(1));
    $("last").addEventListener("click", () => state.game && showTurn(lastIndex()));
    $("slider").addEventListener("input", (event) => showTurn(Number(event.target.value)));
    $("steps-open").addEventListener("click", openSteps);
    $("steps-close").addEventListener("click", () => closeSteps(true));
    $("step-previous").addEventListener("click", () => stepBy(-1));
    $("step-next").addEventListener("click", () => stepBy(1));
    $("patterns").addEventListener("change", (event) => {
      state.patterns = event.target.checked;
      document.body.dataset.patterns = state.patterns ? "on" : "off";
      if (!state.game) return;
      drawTiles(state.layers.tiles);
      if (state.steps) renderStep();
      else if (state.game.turns.length) showTurn(state.shown);
    });
    document.addEventListener("keydown", (event) => {
      if (event.altKey || event.ctrlKey || event.metaKey || !state.game) return;
      if (event.target === $("slider")) return; // the slider moves itself, and says so
      const steps = state.steps;
      if (event.key === "ArrowLeft") steps ? stepBy(-1) : turnBy(-1);
      else if (event.key === "ArrowRight") steps ? stepBy(1) : turnBy(1);
      else if (event.key === "Home") steps ? stepBy(-steps.frames.length) : showTurn(0);
      else if (event.key === "End") steps ? stepBy(steps.frames.length) : showTurn(lastIndex());
      else if (event.key === "Escape" && steps) closeSteps(true);
      else return;
      event.preventDefault();
    });
  }

  bind();
  poll();
})();
