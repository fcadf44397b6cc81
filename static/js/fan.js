// The fan on the cumulative cost chart: a hatched 90 % band edged by a dashed (95th percentile)
// and a dotted (5th percentile) line, a solid median, the training cost's flat lines and a
// hatched break-even column, each labelled in words on the chart, so that no band is told apart
// by colour alone. Nothing is animated. The table beside it carries the same figures; without
// JavaScript the page reads the same.
(function () {
  "use strict";
  let chart = null;
  const INFERENCE = "#8c1d18";
  const TRAINING = "#0b4f8a";
  const BREAK_EVEN = "#4a148c";

  // Diagonal hatching: "/" for the inference band, "\\" (fainter) for the break-even column, so
  // that the two stay apart where they overlap, in any colours.
  function hatch(color, backslash = false) {
    const tile = document.createElement("canvas");
    tile.width = 8;
    tile.height = 8;
    const ctx = tile.getContext("2d");
    ctx.fillStyle = "rgba(255, 255, 255, 0)";
    ctx.fillRect(0, 0, 8, 8);
    ctx.strokeStyle = color;
    ctx.globalAlpha = backslash ? 0.3 : 0.45;
    ctx.lineWidth = 1.5;
    if (backslash) {
      ctx.translate(8, 0);
      ctx.scale(-1, 1);
    }
    window.computePlanner.strokeDiagonals(ctx);
    return tile.getContext("2d").createPattern(tile, "repeat");
  }

  // Words at the right end of each line ("95th", "median", "5th") and over the break-even span.
  const fanLabels = {
    id: "fanLabels",
    beforeDatasetsDraw(c, _args, options) {
      const span = options.breakEven;
      if (!span || span[0] === null) return;
      const x = c.scales.x;
      const area = c.chartArea;
      const left = Math.max(area.left, x.getPixelForValue(span[0]));
      const right = span[2] === null ? area.right : Math.min(area.right, x.getPixelForValue(span[2]));
      if (right <= left) return;
      const ctx = c.ctx;
      ctx.save();
      ctx.fillStyle = hatch(BREAK_EVEN, true);
      ctx.fillRect(left, area.top, right - left, area.bottom - area.top);
      ctx.strokeStyle = BREAK_EVEN;
      ctx.setLineDash([2, 3]);
      ctx.strokeRect(left, area.top, right - left, area.bottom - area.top);
      ctx.restore();
    },
    afterDatasetsDraw(c, _args, options) {
      const ctx = c.ctx;
      ctx.save();
      ctx.font = "12px sans-serif";
      ctx.textBaseline = "middle";
      c.data.datasets.forEach((dataset, index) => {
        if (!dataset.endLabel) return;
        const meta = c.getDatasetMeta(index);
        const last = meta.data[meta.data.length - 1];
        if (!last) return;
        ctx.fillStyle = dataset.borderColor;
        ctx.textAlign = "right";
        ctx.fillText(dataset.endLabel, last.x - 4, last.y - 8);
      });
      const span = options.breakEven;
      if (span && span[0] !== null) {
        const x = Math.max(c.chartArea.left, c.scales.x.getPixelForValue(span[0]));
        if (x < c.chartArea.right) {
          ctx.fillStyle = BREAK_EVEN;
          ctx.textAlign = "left";
          ctx.fillText(options.breakEvenLabel, x + 4, c.chartArea.top + 10);
        }
      }
      ctx.restore();
    },
  };

  function draw() {
    if (chart) {
      chart.destroy();
      chart = null;
    }
    const source = document.getElementById("fan-data");
    const canvas = document.getElementById("chart-fan");
    if (!source || !canvas || !window.Chart) return;
    const data = JSON.parse(source.textContent);
    const labels = data.labels;
    const points = (values) => data.months.map((month, i) => ({ x: month, y: values[i] }));
    const flat = (value) => [{ x: 0, y: value }, { x: data.horizon, y: value }];
    const datasets = [
      { label: labels.p95, endLabel: labels.high, data: points(data.p95), borderColor: INFERENCE,
        borderDash: [8, 4], borderWidth: 2, pointRadius: 0, fill: "+1", backgroundColor: hatch(INFERENCE) },
      { label: labels.p5, endLabel: labels.low, data: points(data.p5), borderColor: INFERENCE,
        borderDash: [2, 3], borderWidth: 2, pointRadius: 0, fill: false },
      { label: labels.p50, endLabel: labels.central, data: points(data.p50), borderColor: INFERENCE,
        borderWidth: 3, pointRadius: 0, pointStyle: "circle", fill: false },
    ];
    if (data.training && data.training[1] !== null) {
      datasets.push({ label: labels.training, data: flat(data.training[1]), borderColor: TRAINING,
        borderWidth: 3, pointRadius: 0, fill: false });
      if (data.training[0] !== null && data.training[2] !== null) {
        datasets.push({ label: labels.training_band, data: flat(data.training[0]), borderColor: TRAINING,
          borderDash: [10, 3, 2, 3], borderWidth: 1.5, pointRadius: 0, fill: false });
        datasets.push({ label: labels.training_band, data: flat(data.training[2]), borderColor: TRAINING,
          borderDash: [10, 3, 2, 3], borderWidth: 1.5, pointRadius: 0, fill: false, legendHidden: true });
      }
    }
    chart = new window.Chart(canvas, {
      type: "line",
      data: { datasets },
      options: {
        // Numbers on the axes and in tooltips as the page's language writes them.
        locale: document.documentElement.lang,
        animation: false,
        transitions: { active: { animation: { duration: 0 } } },
        responsive: true,
        maintainAspectRatio: false,
        parsing: false,
        scales: {
          x: { type: "linear", min: 0, max: data.horizon, title: { display: true, text: labels.month } },
          y: { beginAtZero: true, title: { display: true, text: labels.cost } },
        },
        plugins: {
          legend: { labels: { filter: (item, chartData) => !chartData.datasets[item.datasetIndex].legendHidden } },
          fanLabels: { breakEven: data.break_even, breakEvenLabel: labels.break_even },
        },
      },
      plugins: [fanLabels],
    });
  }

  document.addEventListener("DOMContentLoaded", draw);
  document.addEventListener("htmx:afterSettle", draw);
  document.addEventListener("htmx:historyRestore", draw);
})();
