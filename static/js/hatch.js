// Diagonal "/" hatching that tiles seamlessly: strokes the lines of one 8 px tile on a canvas
// context whose colour, width and transform the caller has set. Shared by the budget's bars
// (budget.js) and the cumulative chart's bands (fan.js).
(function () {
  "use strict";
  window.computePlanner = window.computePlanner || {};
  window.computePlanner.strokeDiagonals = function (ctx) {
    ctx.beginPath();
    ctx.moveTo(0, 8);
    ctx.lineTo(8, 0);
    ctx.moveTo(-2, 2);
    ctx.lineTo(2, -2);
    ctx.moveTo(6, 10);
    ctx.lineTo(10, 6);
    ctx.stroke();
  };
})();
