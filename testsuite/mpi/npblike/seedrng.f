c     The generator of seed.f in a file of its own: advances its argument.
      double precision function nextr(s)
      integer s
      s = mod(5 * s + 3, 11)
      nextr = dble(s) / 11.0d0
      return
      end
