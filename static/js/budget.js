// The budget: a stacked bar chart of capex, opex (hatched) and, when there are any, contingency
// and indirect costs (dotted) per fiscal year, drawn again after every HTMX swap of the budget
// section. With ranges, each bar carries a whisker from the 5th to the 95th percentile of the
// year's total and a diamond at its median, each named in the legend, so that nothing is told
// apart by colour alone. Nothing moves under prefers-reduced-motion. An enhancement: the data
// tables beside it have the figures.
(function () {
  "use strict";
  let chart = null;
  const reduceMotion = window.matchMedia("(prefers-reduced-motion: reduce)");
  const CAPEX = "#0b5cad";
  const OPEX = "#b3261e";
  const ABOVE = "#4d4d4d";
  const RANGE = "#1a1a1a";

  // A fill of the colour with white marks on it: "/" hatching, or dots.
  function pattern(color, kind) {
    const tile = document.createElement("canvas");
    tile.width = 8;
    tile.height = 8;
    const ctx = tile.getContext("2d");
    ctx.fillStyle = color;
    ctx.fillRect(0, 0, 8, 8);
    ctx.strokeStyle = "rgba(255, 255, 255, 0.8)";
    ctx.fillStyle = "rgba(255, 255, 255, 0.8)";
    ctx.lineWidth = 2;
    if (kind === "dots") {
      ctx.beginPath();
      ctx.arc(4, 4, 1.5, 0, 2 * Math.PI);
      ctx.fill();
    } else {
      window.computePlanner.strokeDiagonals(ctx);
    }
    return ctx.createPattern(tile, "repeat");
  }

  // The whiskers: a line from the 5th to the 95th percentile of each year's total with a cap at
  // each end, and a white diamond at the median, drawn over the bars.
  const yearRange = {
    id: "yearRange",
    afterDatasetsDraw(c, _args, options) {
      const range = options.range;
      if (!range) return;
      const y = c.scales.y;
      const bars = c.getDatasetMeta(0).data;
      const ctx = c.ctx;
      ctx.save();
      ctx.strokeStyle = RANGE;
      ctx.lineWidth = 2;
      bars.forEach((bar, i) => {
        if (range.p5[i] === null) return;
        const low = y.getPixelForValue(range.p5[i]);
        const high = y.getPixelForValue(range.p95[i]);
        const middle = y.getPixelForValue(range.p50[i]);
        const half = Math.min(10, bar.width / 4);
        ctx.beginPath();
        ctx.moveTo(bar.x, low);
        ctx.lineTo(bar.x, high);
        ctx.moveTo(bar.x - half, low);
        ctx.lineTo(bar.x + half, low);
        ctx.moveTo(bar.x - half, high);
        ctx.lineTo(bar.x + half, high);
        ctx.stroke();
        ctx.beginPath();
        ctx.moveTo(bar.x, middle - 7);
        ctx.lineTo(bar.x + 7, middle);
        ctx.lineTo(bar.x, middle + 7);
        ctx.lineTo(bar.x - 7, middle);
        ctx.closePath();
        ctx.fillStyle = "#fff";
        ctx.fill();
        ctx.stroke();
      });
      ctx.restore();
    },
  };

  function drawBudgetChart() {
    if (chart) { chart.destroy(); chart = null; }
    const source = document.getElementById("budget-chart-data");
    const canvas = document.getElementById("budget-chart");
    if (!source || !canvas || !window.Chart) return;
    const data = JSON.parse(source.textContent);
    const datasets = [
      { label: data.capex_label, data: data.capex, backgroundColor: CAPEX, borderColor: CAPEX,
        borderWidth: 1, pointStyle: "rect" },
      { label: data.opex_label, data: data.opex, backgroundColor: pattern(OPEX, "hatch"),
        borderColor: OPEX, borderWidth: 1, pointStyle: "rect" },
    ];
    if (data.above) {
      datasets.push({ label: data.above_label, data: data.above, backgroundColor: pattern(ABOVE, "dots"),
        borderColor: ABOVE, borderWidth: 1, pointStyle: "rect" });
    }
    const range = data.range;
    let highest;
    if (range) {
      // Legend entries only: the plugin draws the whiskers and diamonds.
      datasets.push({ type: "line", label: range.range_label, data: [], borderColor: RANGE,
        backgroundColor: RANGE, borderWidth: 2, pointStyle: "line", stack: "whisker" });
      datasets.push({ type: "line", label: range.median_label, data: [], borderColor: RANGE,
        backgroundColor: "#fff", borderWidth: 2, pointStyle: "rectRot", stack: "median" });
      highest = Math.max(...range.p95.filter((value) => value !== null));
    }
    chart = new window.Chart(canvas, {
      type: "bar",
      data: { labels: data.labels, datasets },
      options: {
        // Numbers on the axes and in tooltips as the page's language writes them.
        locale: document.documentElement.lang,
        animation: reduceMotion.matches ? false : { duration: 300 },
        responsive: true,
        maintainAspectRatio: false,
        scales: {
          x: { stacked: true },
          y: { stacked: true, beginAtZero: true, suggestedMax: highest,
               title: { display: true, text: data.unit } },
        },
        plugins: {
          legend: { labels: { usePointStyle: true } },
          yearRange: { range },
        },
      },
      plugins: [yearRange],
    });
  }

  // After a swap of the budget section, move the focus to its news (a line added, changed or
  // deleted) or to the line form it now shows, so keyboard and screen reader users follow.
  function focusBudget(event) {
    const section = event.target.closest ? event.target.closest("#budget") || event.target : null;
    if (!section || section.id !== "budget") return;
    const field = section.querySelector(".cost-line-form input:not([type=hidden]), .cost-line-form select");
    const focusTarget = section.querySelector(".error-summary") || field || section;
    focusTarget.focus();
  }

  document.addEventListener("DOMContentLoaded", drawBudgetChart);
  document.addEventListener("htmx:afterSettle", (event) => {
    drawBudgetChart();
    focusBudget(event);
  });
  document.addEventListener("htmx:historyRestore", drawBudgetChart);
})();
