// OC-Memory dashboard (ocm-run ui): keyboard shortcuts and charts. Everything
// works without this file; it only adds keys and draws the charts with uPlot
// (served from the package's node_modules, no network).
(function () {
  'use strict';
  var pendingG = false;
  function items() {
    return Array.prototype.slice.call(document.querySelectorAll('li.obs'));
  }
  function current() {
    return document.querySelector('li.obs.current');
  }
  function move(step) {
    var list = items();
    if (!list.length) return;
    var at = list.indexOf(current());
    var next = list[Math.max(0, Math.min(list.length - 1, at + step))] || list[0];
    list.forEach(function (li) {
      li.classList.remove('current');
    });
    next.classList.add('current');
    next.focus();
    next.scrollIntoView({ block: 'nearest' });
  }
  document.addEventListener('keydown', function (e) {
    var t = e.target;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT')) {
      if (e.key === 'Escape') t.blur();
      return;
    }
    if (pendingG) {
      pendingG = false;
      var link = document.querySelector(`header nav a[data-key="${e.key}"]`);
      if (link) {
        e.preventDefault();
        link.click();
      }
      return;
    }
    if (e.key === 'g') {
      pendingG = true;
      return;
    }
    if (e.key === '/') {
      var box = document.querySelector('input[data-search]');
      e.preventDefault();
      if (box) box.focus();
      else location.href = '/search';
      return;
    }
    if (e.key === 'j') {
      e.preventDefault();
      move(1);
      return;
    }
    if (e.key === 'k') {
      e.preventDefault();
      move(-1);
      return;
    }
    if (e.key === 'e') {
      var cur = current();
      var edit = cur?.querySelector('a[data-action="edit"]');
      if (edit) {
        e.preventDefault();
        edit.click();
      }
    }
  });

  function drawCharts() {
    if (typeof uPlot === 'undefined') return;
    var colours = ['#0b57d0', '#c5221f', '#188038', '#b06000'];
    document.querySelectorAll('script[data-chart]').forEach(function (node) {
      var data = JSON.parse(node.textContent || '{}');
      var target = document.getElementById(node.getAttribute('data-chart'));
      if (!target || !data.x || data.x.length === 0) return;
      var xs = data.x.map(function (_, i) {
        return i;
      });
      // Categories (data.bars: e.g. transcript tokens vs each agent's active memory) and one or two points are bars, not a line between them.
      var bars = data.bars === true && uPlot.paths && uPlot.paths.bars;
      var opts = {
        width: Math.min(1000, (target.parentElement || document.body).clientWidth || 800),
        height: 220,
        // Every chart's y axis starts at 0 (counts, tokens, ms): 4 against 5 must not look like 0 against 100.
        scales: {
          x: bars
            ? {
                time: false,
                range: function () {
                  return [-0.5, xs.length - 0.5];
                },
              }
            : { time: false },
          y: {
            range: function (_, _min, max) {
              return [0, max > 0 ? max * 1.1 : 1];
            },
          },
        },
        // Counts step by whole numbers: no "2.5 observations" tick.
        axes: [
          {
            splits: bars
              ? function () {
                  return xs;
                }
              : undefined,
            values: function (_, ticks) {
              return ticks.map(function (i) {
                return data.x[i] !== undefined ? data.x[i] : '';
              });
            },
          },
          data.integers
            ? { incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000, 100000, 200000, 500000, 1000000] }
            : {},
        ],
        // The x series' name in the legend (uPlot says 'Value' otherwise), in the page's language.
        series: [{ label: data.xLabel }].concat(
          data.series.map(function (s, i) {
            var colour = colours[i % colours.length];
            return bars
              ? {
                  label: s.label,
                  stroke: colour,
                  fill: colour,
                  width: 1,
                  paths: uPlot.paths.bars({ size: [0.6, 120] }),
                  points: { show: false },
                }
              : { label: s.label, stroke: colour, width: 2, fill: i === 0 ? 'rgba(11,87,208,0.08)' : undefined };
          }),
        ),
      };
      new uPlot(
        opts,
        [xs].concat(
          data.series.map(function (s) {
            return s.values;
          }),
        ),
        target,
      );
      target.setAttribute('data-drawn', 'true');
      target.setAttribute('data-kind', bars ? 'bars' : 'lines');
    });
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', drawCharts);
  else drawCharts();
})();
