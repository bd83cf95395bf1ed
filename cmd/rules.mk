# cmd/: devtraced serves the device's files through FUSE; devtrace is the client.
FUSE_CFLAGS := $(shell pkg-config --cflags fuse3 2>/dev/null)
FUSE_LIBS := $(shell pkg-config --libs fuse3 2>/dev/null || echo -lfuse3 -lpthread)

# callers first (cmd.h, client.h); tests/layers checks that no file calls back up
DEVTRACED_FILES = devtraced fs mnt
DEVTRACE_FILES = devtrace run record cat info replay report graph dump perfetto speedscope dumpwalk ctl state syms sigs aggs status start stop merge toppolicy ownsess recread recsyms recpids client statetext calls pbwrite capfile
CMD_SHARED = argnames keytypes dwarf aggtext live
DEVTRACED_OBJ = $(addprefix $(B)/cmd/,$(addsuffix .o,$(DEVTRACED_FILES) $(CMD_SHARED)))
DEVTRACE_OBJ = $(addprefix $(B)/cmd/,$(addsuffix .o,$(DEVTRACE_FILES) $(CMD_SHARED)))
CMD_OBJ = $(sort $(DEVTRACED_OBJ) $(DEVTRACE_OBJ))

CMD_LIBS = $(HOST_OBJ) $(LIBDEV)

$(B)/cmd/devtraced.o $(B)/cmd/fs.o $(B)/cmd/mnt.o: ALL_CFLAGS += $(FUSE_CFLAGS)

bin/devtraced: $(DEVTRACED_OBJ) $(CMD_LIBS)
	@mkdir -p bin
	$(CC) $(CFLAGS) -o $@ $^ $(FUSE_LIBS) -ldw -lelf

bin/devtrace: $(DEVTRACE_OBJ) $(CMD_LIBS)
	@mkdir -p bin
	$(CC) $(CFLAGS) -o $@ $^ -ldw -lelf -lpthread

PROGS += bin/devtraced bin/devtrace
