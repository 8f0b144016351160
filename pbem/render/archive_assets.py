"""The archive page's style sheet and script (inline: the page loads nothing)."""

PAGE_STYLE = """
body { font-family: Verdana, Arial, sans-serif; margin: 16px; background: #f6f4ee;
       color: #1d1d1b; }
h1 { font-size: 22px; margin: 0 0 6px 0; }
h2 { font-size: 17px; margin: 18px 0 6px 0; }
.meta { color: #555; font-size: 13px; }
#controls { position: sticky; top: 0; background: #f6f4ee; padding: 6px 0; z-index: 2; }
#controls button { font-size: 16px; min-width: 36px; }
#slider { width: 40%; vertical-align: middle; }
#where { font-size: 13px; margin-left: 8px; }
#command { font-size: 14px; min-height: 1.3em; margin: 4px 0; }
#view { display: flex; flex-wrap: wrap; gap: 12px; align-items: flex-start; }
#board { flex: 1 1 620px; max-width: 100%; overflow-x: auto; }
#board svg { width: 100%; height: auto; background: #fbf8f0;
             border: 1px solid #d8d2c0; }
#panel { flex: 1 1 500px; margin: 0; font-family: 'DejaVu Sans Mono', Menlo, Consolas,
         monospace; font-size: 12px; line-height: 1.25; background: #fffdf7;
         border: 1px solid #d8d2c0; padding: 8px; overflow-x: auto; }
table.history { border-collapse: collapse; font-size: 12px; width: 100%; }
table.history th, table.history td { border-bottom: 1px solid #ddd6c4; padding: 3px 6px;
                                     text-align: left; vertical-align: top; }
table.history tr { cursor: pointer; }
table.history tr:hover { background: #efe9d8; }
table.history tr.current { background: #fff1a8; }
table.history tr.undone td { color: #999; text-decoration: line-through; }
table.history tr.revert td { color: #8b0000; }
table.history pre { font-size: 11px; white-space: pre-wrap; margin: 2px 0; }
table.scores td { padding: 2px 10px; font-size: 14px; }
pre.report { font-family: 'DejaVu Sans Mono', Menlo, Consolas, monospace; font-size: 12px;
             background: #fffdf7; border: 1px solid #d8d2c0; padding: 8px;
             max-height: 30em; overflow-y: auto; }
td.num { text-align: right; }
"""

PAGE_SCRIPT = """
function unpack() {
  /* the data is gzip-compressed JSON in base64 */
  var text = document.getElementById('data').textContent.trim();
  var binary = atob(text);
  var bytes = new Uint8Array(binary.length);
  for (var i = 0; i < binary.length; i++) { bytes[i] = binary.charCodeAt(i); }
  var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Response(stream).text().then(JSON.parse);
}

function start(data) {
  var steps = data.steps;
  var hexes = document.getElementById('hexes');
  var panel = document.getElementById('panel');
  var slider = document.getElementById('slider');
  var where = document.getElementById('where');
  var command = document.getElementById('command');
  var history = {};  /* hex -> [[step, fragment], ...] in step order */
  steps.forEach(function (step, i) {
    step.hexes.forEach(function (change) {
      (history[change[0]] = history[change[0]] || []).push([i, change[1]]);
    });
  });
  var order = Object.keys(history);
  var current = -1;

  function fragmentAt(changes, k) {
    var found = changes[0][1];
    for (var j = 0; j < changes.length && changes[j][0] <= k; j++) { found = changes[j][1]; }
    return found;
  }

  function show(k) {
    k = Math.max(0, Math.min(steps.length - 1, k));
    if (k === current) { return; }
    var parts = order.map(function (coord) {
      return data.fragments[fragmentAt(history[coord], k)];
    });
    hexes.innerHTML = parts.join('');
    panel.innerHTML = data.panels[steps[k].panel];
    var old = document.querySelector('tr.current');
    if (old) { old.classList.remove('current'); }
    var row = document.getElementById('row-' + k);
    if (row) { row.classList.add('current'); }
    slider.value = k;
    var step = steps[k];
    where.textContent = 'event ' + step.seq + ' (' + (k + 1) + ' of ' + steps.length + ')';
    command.textContent = step.seq === 0 ? step.text :
      step.when + '  ' + step.actor + ': ' + step.text;
    document.body.setAttribute('data-step', String(k));
    current = k;
  }

  document.getElementById('first').onclick = function () { show(0); };
  document.getElementById('prev').onclick = function () { show(current - 1); };
  document.getElementById('next').onclick = function () { show(current + 1); };
  document.getElementById('last').onclick = function () { show(steps.length - 1); };
  slider.oninput = function () { show(parseInt(slider.value, 10)); };
  document.addEventListener('keydown', function (e) {
    if (e.key === 'ArrowLeft') { show(current - 1); }
    if (e.key === 'ArrowRight') { show(current + 1); }
  });
  document.querySelectorAll('tr[data-step]').forEach(function (row) {
    row.onclick = function () {
      show(parseInt(row.getAttribute('data-step'), 10));
      window.scrollTo(0, 0);
    };
  });

  /* #step=N shows step N; #step=N&press=next,next,prev then presses those buttons */
  var params = {};
  location.hash.replace(/^#/, '').split('&').forEach(function (pair) {
    var kv = pair.split('=');
    if (kv[0]) { params[kv[0]] = decodeURIComponent(kv[1] || ''); }
  });
  show(params.step ? parseInt(params.step, 10) : steps.length - 1);
  (params.press ? params.press.split(',') : []).forEach(function (id) {
    var button = document.getElementById(id);
    if (button) { button.click(); }
  });
}

if (typeof DecompressionStream === 'undefined') {
  document.getElementById('command').textContent =
    'This browser cannot unpack the game data; the history below is complete.';
} else {
  unpack().then(start);
}
"""
