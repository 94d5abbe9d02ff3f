// What python3 ./provdier.py does: says why on stderr, and exits 2 before reading or writing a line.
process.stderr.write("python3: can't open file '/work/provdier.py': [Errno 2] No such file or directory\n");
process.exit(2);
