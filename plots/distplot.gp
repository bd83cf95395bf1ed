# distplot.gp: the look of plots/distplot; data and plot command follow,
# from distplot.awk.
set border 3
set tics nomirror out
set grid ytics lc rgb "#e0e0e0"
set key off
set style fill solid 0.85 noborder
set xtics format "%.10g"
