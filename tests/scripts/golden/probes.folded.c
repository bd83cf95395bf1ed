main 1
main;probe:full 1
main;work 1
main;work;probe:step 2
probe:full 1
work 1
work;probe:step 1
