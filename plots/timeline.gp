# timeline.gp: the look of plots/createplot's call timeline.  The title,
# ranges, data blocks and plot command follow, from timeline.awk.
set style fill solid 1.0 noborder
set key below horizontal noenhanced samplen 1.5 spacing 1.2 width 1 maxrows 3
set grid xtics lc rgb "#e0e0e0"
set border 3
set tics nomirror out
set xtics format "%.10g"
set lmargin 12
set rmargin 3
set ylabel "call depth, by thread"
