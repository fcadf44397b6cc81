// The sweep page's line chart (Chart.js); its figures are also in a table, so the page reads the
// same without it. Drawn again when the results arrive by HTMX at the end of a sweep.
(function () {
  "use strict";
  const reduceMotion = window.matchMedia("(prefers-reduced-motion: reduce)");
  const colours = ["#0b5cad", "#b3261e", "#1b7f3b", "#6a1b9a", "#b25e00", "#00838f", "#4a5560"];
  let chart = null;

  function positive(lines) {
    return lines.every((line) => line.points.every((point) => point[1] === null || point[1] > 0));
  }

  function spread(lines) {
    const values = lines.flatMap((line) => line.points.map((point) => point[1]))
      .filter((value) => value !== null);
    return values.length ? Math.max(...values) / Math.min(...values) : 1;
  }

  function draw() {
    if (chart) { chart.destroy(); chart = null; }
    const source = document.getElementById("sweep-chart-data");
    const canvas = document.getElementById("sweep-chart");
    if (!source || !canvas || !window.Chart) return;
    const data = JSON.parse(source.textContent);
    const yLog = positive(data.lines) && spread(data.lines) > 100;
    chart = new window.Chart(canvas, {
      type: "line",
      data: {
        datasets: data.lines.map((line, i) => ({
          label: line.label,
          data: line.points.map((point) => ({ x: point[0], y: point[1] })),
          borderColor: colours[i % colours.length],
          backgroundColor: colours[i % colours.length],
          borderDash: i % 2 ? [6, 3] : [],
          pointRadius: line.points.length > 50 ? 0 : 2,
          borderWidth: 2,
          spanGaps: false,
        })),
      },
      options: {
        // Numbers on the axes and in tooltips as the page's language writes them.
        locale: document.documentElement.lang,
        animation: reduceMotion.matches ? false : { duration: 300 },
        responsive: true,
        maintainAspectRatio: false,
        parsing: false,
        scales: {
          x: { type: data.x_log ? "logarithmic" : "linear", title: { display: true, text: data.x_label } },
          y: { type: yLog ? "logarithmic" : "linear", title: { display: true, text: canvas.dataset.unit || "" } },
        },
      },
    });
  }

  document.addEventListener("DOMContentLoaded", draw);
  document.addEventListener("htmx:afterSettle", draw);
})();
