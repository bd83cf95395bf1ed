# flamegraph.gp: the look of plots/flamegraph; the title, ranges, data
# blocks and plot command follow, from flamegraph.awk.
set style fill solid 1.0 border lc rgb "#ffffff"
set key off
set border 1
set tics nomirror out
set ytics format ""
unset ytics
set ylabel "call depth"
set xtics format "%g%%"
set lmargin 4
set rmargin 3
