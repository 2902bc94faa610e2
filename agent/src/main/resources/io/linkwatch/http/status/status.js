(function () {
  var every = Number(document.currentScript.dataset.refreshMs);
  var W = 64, H = 16, NS = 'http://www.w3.org/2000/svg';
  var history = null, version = null;
  function url(path) { return new URL(path, location.origin); }
  // GB/s as the page's tables write them (Gbps.java): one decimal from 1, two significant digits
  // below, so a 1KiB collective's 0.012 is not 0.0; zero is 0.
  function gbps(v) {
    var g = v / 1e9;
    if (g === 0) { return '0'; }
    var small = Number(g.toPrecision(2));
    return Math.abs(small) >= 1 ? g.toFixed(1) : String(small);
  }
  function label(unit, v) {
    return unit === 'seconds' ? (v * 1e6).toFixed(1) + ' µs' : gbps(v) + ' GB/s';
  }
  function chart(s) {
    var span = history.end_seconds - history.start_seconds, max = 0;
    s.points.forEach(function (p) { max = Math.max(max, p[1]); });
    var xy = s.points.map(function (p) {
      var x = (p[0] - history.start_seconds) / span * W;
      var y = max > 0 ? (H - 1) - p[1] / max * (H - 2) : H - 1;
      return x.toFixed(2) + ',' + y.toFixed(2);
    });
    var svg = document.createElementNS(NS, 'svg');
    svg.setAttribute('width', W);
    svg.setAttribute('height', H);
    svg.setAttribute('viewBox', '0 0 ' + W + ' ' + H);
    var title = document.createElementNS(NS, 'title');
    var values = s.points.map(function (p) { return p[1]; });
    title.textContent = s.points.length + ' figures in the last '
      + Math.round(span / 3600) + ' h, ' + label(s.unit, Math.min.apply(null, values))
      + ' to ' + label(s.unit, max);
    svg.appendChild(title);
    var line = document.createElementNS(NS, 'polyline');
    line.setAttribute('points', xy.join(' '));
    svg.appendChild(line);
    var last = xy[xy.length - 1].split(',');
    var dot = document.createElementNS(NS, 'circle');
    dot.setAttribute('cx', last[0]);
    dot.setAttribute('cy', last[1]);
    dot.setAttribute('r', 1.5);
    svg.appendChild(dot);
    return svg;
  }
  function paint() {
    var byId = {};
    history.series.forEach(function (s) { byId[s.id] = s; });
    document.querySelectorAll('.spark[data-series]').forEach(function (el) {
      var s = byId[el.dataset.series];
      el.replaceChildren.apply(el, s ? [chart(s)] : []);
    });
  }
  function charts() {
    var want = document.getElementById('content').dataset.historyVersion;
    if (history && want === version) { paint(); return; }
    fetch(url('/api/v1/history'), {cache: 'no-store'})
      .then(function (r) {
        if (!r.ok) { throw new Error('HTTP ' + r.status); }
        return r.json();
      })
      .then(function (h) { history = h; version = want; paint(); })
      .catch(function (e) {
        var s = document.getElementById('refresh');
        if (s) { s.textContent = 'charts failed (' + e.message + ')'; }
      });
  }
  function tick() {
    fetch(url(location.pathname + location.search), {cache: 'no-store'})
      .then(function (r) {
        if (!r.ok) { throw new Error('HTTP ' + r.status); }
        return r.text();
      })
      .then(function (text) {
        var next = new DOMParser().parseFromString(text, 'text/html').getElementById('content');
        if (next) { document.getElementById('content').replaceWith(next); charts(); }
      })
      .catch(function (e) {
        var s = document.getElementById('refresh');
        if (s) { s.textContent = 'refresh failed (' + e.message + '), retrying'; }
      })
      .finally(function () { setTimeout(tick, every); });
  }
  charts();
  setTimeout(tick, every);
})();
